/**
 * The answers of a tenant's policy document (GET and PUT /api/admin/tenants/{tenantId}/policy), as
 * zod schemas: the one description of their shape. policyDocumentStore.ts returns the exported
 * document's inferred type, the OpenAPI document renders them.
 */
import { z } from "zod";
import { storedIdentitySchema } from "../../policy/identity/identitySchema";
import { identifierOverrideSchema } from "../../policy/overrides/overrideSchema";
import { storedRuleSchema } from "../../policy/rules/ruleAnswers";
import { billingSettingsSchema, clientLimitConditionSchema, refusalRateConditionSchema } from "../alerts/alertSchema";

/** GET .../policy: the policy without a secret. */
export const exportedPolicySchema = z.object({
  rules: z.array(storedRuleSchema).meta({ description: "The tenant's rules." }),
  keys: z
    .record(
      z.string(),
      z.object({
        tier: z.string().nullable(),
        rules: z.array(storedRuleSchema),
        billingDay: z.number().int().optional(),
      }),
    )
    .meta({
      description:
        "Every live API key by name (by id where two live keys share a name): its tier, override rules and, when it has one, its billing day (1..31: its month rules of scope key start on that day). Never its secret.",
    }),
  tiers: z.record(z.string(), z.array(storedRuleSchema)).meta({ description: "Tiers with rules, by name." }),
  overrides: z
    .record(z.string(), z.array(identifierOverrideSchema))
    .meta({ description: "Identifier overrides by identifier rule name (rules with overrides only)." }),
  access: z.object({ allow: z.array(z.string()), deny: z.array(z.string()) }),
  identity: storedIdentitySchema.meta({ description: "As GET .../identity answers it." }),
  upstream: z
    .object({ url: z.string(), timeoutMs: z.number().int(), signRequests: z.boolean() })
    .nullable()
    .meta({ description: "The gateway upstream, never its signing secret; null: none." }),
  alerts: z
    .object({
      webhookUrlHint: z.string(),
      refusalRate: refusalRateConditionSchema.nullable(),
      clientLimit: clientLimitConditionSchema.nullable(),
      billing: billingSettingsSchema.nullable(),
    })
    .nullable()
    .meta({
      description:
        "Alert conditions; the webhook URL only as its hint (it is a secret), never the signing secret; null: none.",
    }),
});
export type ExportedPolicy = z.infer<typeof exportedPolicySchema>;

/** PUT .../policy: what changed. */
export const appliedPolicySchema = z.object({
  changed: z.array(z.string()).meta({
    description:
      "What changed (or would, for a dry run): `rules`, `tiers.<tier>`, `keys.<name>.tier`, `keys.<name>.rules`, `overrides.<rule>`, `access`, `identity`, `upstream`, `alerts`. Empty: the document is the current policy; nothing was written or audited.",
  }),
  dryRun: z.boolean(),
});
export type AppliedPolicyAnswer = z.infer<typeof appliedPolicySchema>;
