/**
 * The answers about API keys, as zod schemas: the one description of their shape. The store returns
 * their inferred types, the OpenAPI document renders them, the dashboard imports the types.
 */
import { z } from "zod";
import { isoTimeSchema } from "../../common/isoTime";

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
