/**
 * The remaining-quota answers (GET /api/admin/keys/{keyId}/quota, GET /api/admin/tenants/{tenantId}/quota)
 * as zod schemas: the one description of their shape. remainingQuota.ts returns their inferred
 * types, the OpenAPI document renders them, the dashboard imports the types.
 */
import { z } from "zod";
import { RULE_ALGORITHMS, RULE_MODES, SCOPES } from "../../limiter/types";
import { RULE_SOURCES } from "../../policy/keys/keyAnswers";

export const ruleQuotaSchema = z.object({
  name: z.string(),
  source: z.enum(RULE_SOURCES),
  scope: z.enum(SCOPES),
  algorithm: z.enum(RULE_ALGORITHMS),
  mode: z.enum(RULE_MODES),
  limit: z.number().meta({ description: "Units per window (for token_bucket and gcra: refilled per window)." }),
  capacity: z
    .number()
    .meta({ description: "Most units the rule can hold: `burst` for token_bucket and gcra, else `limit`." }),
  remaining: z
    .number()
    .nullable()
    .meta({ description: "Units left now; null when the rule's counter was not read (ip or identifier not given)." }),
  resetMs: z.number().nullable().meta({ description: "Until the rule is whole again (ms); null when not read." }),
  retryAfterMs: z.number().nullable().meta({
    description: "0 while a request of the rule's cost passes this rule; else until it would (ms); null when not read.",
  }),
});
export type RuleQuota = z.infer<typeof ruleQuotaSchema>;

export const keyQuotaSchema = z
  .object({
    nowMs: z.number().int().meta({
      description: "When the figures were read (epoch ms, Redis time; the server's clock when nothing was read).",
    }),
    rules: z.array(ruleQuotaSchema),
  })
  .meta({
    description:
      "Remaining quota of each of the key's effective rules; `ip` and `identifier` rules are read only for the `ip` or `identifier` given.",
  });
export type KeyQuota = z.infer<typeof keyQuotaSchema>;

export const tenantQuotaSchema = z
  .object({
    nowMs: z.number().int(),
    tenantRules: z
      .array(ruleQuotaSchema)
      .meta({ description: "The tenant's `tenant`-scope rules: one counter shared by all its keys." }),
    keys: z.array(z.object({ keyId: z.string(), keyName: z.string(), rules: z.array(ruleQuotaSchema) })),
    truncated: z.boolean().meta({ description: "The tenant has more live keys than were read." }),
  })
  .meta({
    description:
      "Remaining quota of the tenant's rules and of each live key's rules (at most 200 keys; `truncated` when more).",
  });
export type TenantQuota = z.infer<typeof tenantQuotaSchema>;
