/**
 * Inputs of the admin API, one zod schema each; the dashboard forms import the same schemas.
 * Rules themselves are defined once in lib/rules/ruleSchema.ts.
 */
import { z } from "zod";
import { ruleListSchema } from "../rules/ruleSchema";

/** Tenant, key and operator names: any text of 1 to 128 characters after trimming. */
export const displayNameSchema = z
  .string({ error: "name is required and must be text" })
  .trim()
  .min(1, "name must not be empty")
  .max(128, "name must be at most 128 characters");

export const createTenantSchema = z.object({ name: displayNameSchema }).strict();
export const createKeySchema = z.object({ name: displayNameSchema }).strict();

export const tenantRulesSchema = ruleListSchema;

/** Key overrides: like tenant rules, but never charging the whole tenant or an identifier. */
export const keyRulesSchema = ruleListSchema.superRefine((rules, ctx) => {
  rules.forEach((rule, i) => {
    if (rule.scope === "tenant" || rule.scope === "identifier") {
      ctx.addIssue({ code: "custom", path: [i, "scope"], message: `a key rule may not have scope ${rule.scope} (use key or ip)` });
    }
  });
});

export const auditQuerySchema = z
  .object({
    tenantId: z.string().regex(/^[0-9A-Za-z]{8}$/, "tenantId must be a tenant id").optional(),
    limit: z.coerce.number({ error: "limit must be a number" }).int("limit must be a whole number").min(1, "limit must be at least 1").max(500, "limit must be at most 500").default(100),
  })
  .strict();

export type CreateTenantInput = z.input<typeof createTenantSchema>;
export type CreateKeyInput = z.input<typeof createKeySchema>;
