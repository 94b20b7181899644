/**
 * The answers about API keys, as zod schemas: the one description of their shape. The store returns
 * their inferred types, the OpenAPI document renders them, the dashboard imports the types.
 */
import { z } from "zod";
import { isoTimeSchema } from "../../common/isoTime";
import { storedRuleListSchema, storedRuleSchema } from "../rules/ruleAnswers";

export const keySchema = z.object({
  id: z.string(),
  tenantId: z.string(),
  name: z.string(),
  prefix: z.string().meta({ description: "The key's first characters, for recognising it; never enough to use it." }),
  createdAt: isoTimeSchema,
  revokedAt: isoTimeSchema.nullable(),
  lastUsedAt: isoTimeSchema.nullable(),
  expiresAt: isoTimeSchema.nullable().meta({
    description: "From this instant the key is refused (401); null: never expires (lib/policy/keys/keyExpiry.ts).",
  }),
  tier: z
    .string()
    .nullable()
    .meta({ description: "The tier (plan) the key is in (lib/policy/tiers); null: none. It need not have rules yet." }),
  billingDay: z.number().int().nullable().meta({
    description:
      "The key's billing day (1..31): its month-period rules of scope key start on this day of the month (a shorter month: its last day) in the rule's time zone; null: calendar months.",
  }),
});
export type KeyView = z.infer<typeof keySchema>;

export const createdKeySchema = keySchema.extend({
  key: z.string().meta({ description: "The whole key: shown only in this answer; only a hash is stored." }),
});
export type CreatedKey = z.infer<typeof createdKeySchema>;

export const RULE_SOURCES = ["tenant", "tier", "override"] as const;
export type RuleSource = (typeof RULE_SOURCES)[number];

/** GET /api/admin/keys/{keyId}: the key, its tenant's name, and its rules told apart. */
export const keyDetailsSchema = keySchema.extend({
  tenantName: z.string(),
  rules: z.object({
    tenant: storedRuleListSchema,
    tier: storedRuleListSchema.meta({ description: "The rules of the key's tier (empty: none, or no rules)." }),
    overrides: storedRuleListSchema,
    effective: z
      .array(storedRuleSchema.extend({ source: z.enum(RULE_SOURCES) }))
      .meta({ description: "What the key's requests are checked against, in enforcement's order." }),
  }),
});
export type KeyDetails = z.infer<typeof keyDetailsSchema>;
export type EffectiveRule = KeyDetails["rules"]["effective"][number];
