/**
 * The answers about grants, as zod schemas: the one description of their shapes. A key's grants
 * (POST/GET /api/admin/keys/{keyId}/grants: grantService.ts) and a tenant's grants for JWT subjects
 * and tiers (POST/GET /api/admin/tenants/{tenantId}/grants: callerGrantService.ts) return their
 * inferred types, the OpenAPI document renders them, the dashboard imports the types.
 */
import { z } from "zod";
import { isoTimeSchema } from "../../common/isoTime";

export const grantViewSchema = z.object({
  id: z.string(),
  keyId: z.string(),
  rule: z.string().nullable().meta({ description: "The rule raised; null: every key-scoped rule of the key." }),
  units: z.number().int(),
  until: isoTimeSchema.meta({ description: "When the grant ends (it then disappears by itself)." }),
  createdAt: isoTimeSchema,
  createdBy: z.string().meta({ description: "The audit actor that made it." }),
});
export type GrantView = z.infer<typeof grantViewSchema>;

export const callerGrantViewSchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  subject: z.string().nullable().meta({ description: "The JWT subject the units are for; null: a tier's grant." }),
  tier: z
    .string()
    .nullable()
    .meta({ description: "The tier whose every caller gets the units; null: a subject's grant." }),
  rule: z.string().nullable().meta({ description: "The rule raised; null: every key-scoped rule of the caller." }),
  units: z.number().int(),
  until: isoTimeSchema.meta({ description: "When the grant ends (it then disappears by itself)." }),
  createdAt: isoTimeSchema,
  createdBy: z.string().meta({ description: "The audit actor that made it." }),
});
export type CallerGrantView = z.infer<typeof callerGrantViewSchema>;
