/**
 * The answer about a tenant's tiers (GET /api/admin/tenants/{tenantId}/tiers), as a zod schema: the
 * one description of its shape. tierStore.ts returns its inferred type, the OpenAPI document
 * renders it, the dashboard imports the type.
 */
import { z } from "zod";
import { storedRuleListSchema } from "../rules/ruleAnswers";

export const tierSchema = z.object({
  name: z.string(),
  rules: storedRuleListSchema.meta({
    description: "The tier's override rules, in order (empty: a tier only named by keys so far).",
  }),
  keys: z.number().int().meta({ description: "Live (unrevoked) keys in the tier." }),
});
export type TierView = z.infer<typeof tierSchema>;
