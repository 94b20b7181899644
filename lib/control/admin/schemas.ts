/**
 * Bodies of the admin API, one zod schema each; the dashboard forms import the same schemas, so
 * this module and its imports must stay browser-safe (test/security/browserBundle.test.ts). The
 * query strings that only routes read are in querySchemas.ts. Rules themselves are defined once in
 * lib/policy/rules/ruleSchema.ts.
 */
import { z } from "zod";
import { expiresAtSchema, futureExpiresAtSchema } from "../../policy/keys/keyExpiry";
import { keyTierSchema, tierNameSchema } from "../../policy/tiers/tierName";
import { DISPLAY_NAME_MAX, MAX_UNITS, RULE_NAME_PATTERN } from "../../common/fieldLimits";
import { ruleListSchema } from "../../policy/rules/ruleSchema";
import { plainText } from "../../common/textInput";

/** Tenant, key and operator names: any text of 1 to DISPLAY_NAME_MAX characters after trimming (plain text: no control characters). */
export const displayNameSchema = plainText(
  z
    .string({ error: "name is required and must be text" })
    .trim()
    .min(1, "name must not be empty")
    .max(DISPLAY_NAME_MAX, `name must be at most ${DISPLAY_NAME_MAX} characters`),
  "name",
);

/**
 * A key's billing day (1..31): its month-period rules of scope `key` start on that day of the month
 * instead of the 1st (a shorter month: on its last day); lib/policy/compiled/billingAnchor.ts.
 */
export const billingDaySchema = z
  .number({ error: "billingDay must be a whole number from 1 to 31" })
  .int("billingDay must be a whole number from 1 to 31")
  .min(1, "billingDay must be from 1 to 31")
  .max(31, "billingDay must be from 1 to 31 (a month shorter than it starts its period on its last day)");

export const createTenantSchema = z.object({ name: displayNameSchema }).strict();
/**
 * `expiresAt` (optional): when the key stops working, see lib/policy/keys/keyExpiry.ts; `tier`
 * (optional): the tier (plan) it is in, lib/policy/tiers/tierName.ts; `billingDay` (optional): billingDaySchema.
 */
export const createKeySchema = z
  .object({
    name: displayNameSchema,
    expiresAt: futureExpiresAtSchema().optional(),
    tier: tierNameSchema.optional(),
    billingDay: billingDaySchema.optional(),
  })
  .strict();

/** PATCH /api/admin/keys/{keyId}: a new expiry, tier or billing day (null: none), any of them. */
export const keyPatchSchema = z
  .object({
    expiresAt: expiresAtSchema.optional(),
    tier: keyTierSchema.optional(),
    billingDay: billingDaySchema.nullable().optional(),
  })
  .strict()
  .refine((patch) => patch.expiresAt !== undefined || patch.tier !== undefined || patch.billingDay !== undefined, {
    message: "send expiresAt, tier, billingDay or some of them",
  });

export const tenantRulesSchema = ruleListSchema;

/**
 * Override rules (a key's, or a tier's: `owner` says which in messages): like tenant rules, but
 * never charging the whole tenant or an identifier.
 */
function overrideRulesSchema(owner: "key" | "tier") {
  return ruleListSchema.superRefine((rules, ctx) => {
    rules.forEach((rule, i) => {
      // descriptor: Envoy's rate limit service calls carry no API key or tier, so such a rule could never apply.
      if (rule.scope === "tenant" || rule.scope === "identifier" || rule.scope === "descriptor") {
        ctx.addIssue({
          code: "custom",
          path: [i, "scope"],
          message: `a ${owner} rule may not have scope ${rule.scope} (use key, ip, header or query)`,
        });
      }
    });
  });
}

/** Key overrides (PUT /api/admin/keys/{keyId}/rules). */
export const keyRulesSchema = overrideRulesSchema("key");
/** A tier's rules (PUT /api/admin/tenants/{tenantId}/tiers/{tier}/rules): the same as a key's overrides. */
export const tierRulesSchema = overrideRulesSchema("tier");

export type CreateTenantInput = z.input<typeof createTenantSchema>;
export type CreateKeyInput = z.input<typeof createKeySchema>;
export type KeyPatchInput = z.input<typeof keyPatchSchema>;

/**
 * POST /api/admin/keys/{keyId}/grants (issue 33): `units` extra on `rule` (default: every
 * key-scoped rule of the key) until `until` (ISO 8601 with a zone, in the future; default: the end
 * of the rule's current window or period).
 */
export const grantSchema = z
  .object({
    units: z
      .number({ error: "units must be a number" })
      .int("units must be a whole number")
      .min(1, "units must be at least 1")
      .max(MAX_UNITS, `units must be at most ${MAX_UNITS.toLocaleString("en")}`)
      .meta({ description: "Extra units added to the rule's limit for this key while the grant lasts." }),
    rule: z
      .string({ error: "rule must be text" })
      .regex(RULE_NAME_PATTERN, "rule must be a rule name")
      .optional()
      .meta({ description: "The key-scoped rule to raise; absent: every key-scoped rule that applies to the key." }),
    until: z
      .string({ error: "until must be text" })
      .datetime({ offset: true, message: "until must be an ISO 8601 instant with a zone (2027-01-31T23:00:00Z)" })
      .refine((text) => Date.parse(text) > Date.now(), "until must be in the future")
      .optional()
      .meta({ description: "When the grant ends; absent: the end of the rule's current window or period." }),
  })
  .strict();

/** A JWT subject as the verifier accepts it (lib/policy/identity/jwtVerifier.ts: 1 to 256 characters). */
export const GRANT_SUBJECT_MAX = 256;

/**
 * POST /api/admin/tenants/{tenantId}/grants (issue 33): the key grant's `units`, `rule` and `until`
 * for a JWT caller (`subject`, its verified `sub`) or for every caller of a tier (`tier`): exactly one
 * of the two.
 */
export const callerGrantSchema = z
  .object({
    ...grantSchema.shape,
    subject: plainText(
      z
        .string({ error: "subject must be text" })
        .min(1, "subject must not be empty")
        .max(GRANT_SUBJECT_MAX, `subject must be at most ${GRANT_SUBJECT_MAX} characters`),
      "subject",
    )
      .optional()
      .meta({ description: "The JWT caller (its verified subject claim) the units are for." }),
    tier: tierNameSchema
      .optional()
      .meta({ description: "The tier whose callers (each key of it, each JWT naming it) get the units." }),
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.subject === undefined) === (input.tier === undefined))
      ctx.addIssue({
        code: "custom",
        path: [input.subject === undefined ? "subject" : "tier"],
        message: "name exactly one of subject (a JWT caller) and tier",
      });
  });
