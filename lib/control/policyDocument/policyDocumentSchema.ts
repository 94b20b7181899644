/**
 * The one schema of a tenant's policy document (CONTRACT.md "Tokens and policy as code"): GET and
 * PUT /api/admin/tenants/{tenantId}/policy and the `sluice` CLI (packages/client). Built from the
 * schemas each part's own route validates with, never re-declared; browser-safe (zod only).
 *
 * - `rules`: the tenant's rules (tenantRulesSchema).
 * - `keys`: by key name (or, where two live keys share a name, by key id): `{ tier, rules, billingDay? }`,
 *   the key's tier (keyTierSchema), override rules (keyRulesSchema) and billing day (billingDaySchema,
 *   exported only when set; absent or null: none). Keys are created through the
 *   API, never declared: a name that matches no live key of the tenant is a 422; a live key the
 *   document leaves out keeps its tier and rules.
 * - `tiers`: by tier name (tierNameSchema): the tier's rules (tierRulesSchema). A tier with rules
 *   that the document leaves out loses them.
 * - `overrides`: by identifier rule name: its overrides (identifierOverrideListSchema).
 * - `access`, `identity`: as their routes take them.
 * - `upstream`: `{ url, timeoutMs, signRequests }` or null (no signing secret: it stays stored;
 *   `rotateSecret` is refused, rotate through PUT .../upstream).
 * - `alerts`: `{ refusalRate, clientLimit, billing, webhookUrl? }` or null. The webhook URL is a secret
 *   (a capability URL) and the export shows only `webhookUrlHint`: a document without `webhookUrl`
 *   keeps the stored URL; alerts set for the first time need one. `webhookUrlHint` is read and ignored.
 * Secrets never appear: API keys' hashes, the upstream's and the webhooks' signing secrets, the
 * webhook URL (JWT settings hold public keys only: identitySchema refuses symmetric and private keys).
 */
import { z } from "zod";
import { billingDaySchema, keyRulesSchema, tenantRulesSchema, tierRulesSchema } from "../admin/schemas";
import { keyTierSchema, tierNameSchema } from "../../policy/tiers/tierName";
import { identifierOverrideListSchema } from "../../policy/overrides/overrideSchema";
import { accessListsSchema } from "../../policy/access/accessListSchema";
import { identitySchema } from "../../policy/identity/identitySchema";
import { upstreamSchema } from "../../policy/upstreams/upstreamSchema";
import {
  alertSettingsSchema,
  billingSettingsSchema,
  clientLimitConditionSchema,
  refusalRateConditionSchema,
} from "../alerts/alertSchema";

const keyPolicySchema = z
  .object(
    {
      tier: keyTierSchema.default(null),
      rules: keyRulesSchema.default([]),
      billingDay: billingDaySchema.nullable().optional(),
    },
    { error: "a key's policy must be an object { tier, rules, billingDay? }" },
  )
  .strict();

const upstreamPolicySchema = upstreamSchema.superRefine((u, ctx) => {
  if (u.rotateSecret)
    ctx.addIssue({
      code: "custom",
      path: ["rotateSecret"],
      message: "rotateSecret is not part of a policy document: rotate through PUT /api/admin/tenants/{id}/upstream",
    });
});

const alertsPolicySchema = z
  .object(
    {
      webhookUrl: alertSettingsSchema.shape.webhookUrl.optional(),
      webhookUrlHint: z.string({ error: "webhookUrlHint must be text" }).optional(),
      refusalRate: refusalRateConditionSchema.nullable().default(null),
      clientLimit: clientLimitConditionSchema.nullable().default(null),
      billing: billingSettingsSchema.nullable().default(null),
    },
    { error: "alerts must be an object or null" },
  )
  .strict()
  .refine((s) => s.refusalRate !== null || s.clientLimit !== null || s.billing !== null, {
    message: "Turn on at least one condition or the billing hook (or set alerts to null).",
    path: ["conditions"],
  });

const KEY_REF = z.string().min(1, "a key name must not be empty").max(200, "a key name must be at most 200 characters");

export const policyDocumentSchema = z
  .object(
    {
      rules: tenantRulesSchema,
      keys: z.record(KEY_REF, keyPolicySchema, { error: "keys must be an object by key name" }),
      tiers: z.record(tierNameSchema, tierRulesSchema, { error: "tiers must be an object by tier name" }),
      overrides: z.record(z.string().min(1, "a rule name must not be empty"), identifierOverrideListSchema, {
        error: "overrides must be an object by identifier rule name",
      }),
      access: accessListsSchema,
      identity: identitySchema,
      upstream: upstreamPolicySchema.nullable(),
      alerts: alertsPolicySchema.nullable(),
    },
    { error: "the policy document must be an object" },
  )
  .strict();

export type PolicyDocumentInput = z.input<typeof policyDocumentSchema>;
export type PolicyDocument = z.output<typeof policyDocumentSchema>;

/** The parts of a document, in the order they are applied and named in `changed`. */
export const POLICY_PARTS = [
  "rules",
  "tiers",
  "keys",
  "overrides",
  "access",
  "identity",
  "upstream",
  "alerts",
] as const;

/** PUT .../policy?dryRun=1: answer what would change, change nothing. */
export const policyQuerySchema = z
  .object({
    dryRun: z
      .enum(["1", "0", "true", "false"], { error: "dryRun must be 1 or 0 (true or false)" })
      .optional()
      .transform((v) => v === "1" || v === "true"),
  })
  .strict();
