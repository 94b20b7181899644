/**
 * Inputs of the admin API, one zod schema each; the dashboard forms import the same schemas.
 * Rules themselves are defined once in lib/rules/ruleSchema.ts.
 */
import { z } from "zod";
import { futureExpiresAtSchema } from "../apiKeys/keyExpiry";
import { identifierSchema } from "../enforce/checkIdentifier";
import { normalizeIp } from "../enforce/clientIp";
import { ruleListSchema } from "../rules/ruleSchema";
import { plainText } from "../textInput";

/** Tenant, key and operator names: any text of 1 to 128 characters after trimming (plain text: no control characters). */
export const displayNameSchema = plainText(
  z.string({ error: "name is required and must be text" }).trim().min(1, "name must not be empty").max(128, "name must be at most 128 characters"),
  "name",
);

export const createTenantSchema = z.object({ name: displayNameSchema }).strict();
/** `expiresAt` (optional): when the key stops working, see lib/apiKeys/keyExpiry.ts. */
export const createKeySchema = z.object({ name: displayNameSchema, expiresAt: futureExpiresAtSchema().optional() }).strict();

export const tenantRulesSchema = ruleListSchema;

/** Key overrides: like tenant rules, but never charging the whole tenant or an identifier. */
export const keyRulesSchema = ruleListSchema.superRefine((rules, ctx) => {
  rules.forEach((rule, i) => {
    if (rule.scope === "tenant" || rule.scope === "identifier") {
      ctx.addIssue({ code: "custom", path: [i, "scope"], message: `a key rule may not have scope ${rule.scope} (use key, ip, header or query)` });
    }
  });
});

/** Audit event ids are database sequence numbers, written in decimal. */
export const AUDIT_ID_PATTERN = /^[1-9][0-9]{0,17}$/;

/** GET /api/admin/audit: newest first, `limit` per page, `before` = the last id of the previous page. */
/** A time bound of the audit filter: an ISO date ("2026-11-24") or date-time. */
const auditTime = (name: string) =>
  z
    .string()
    .refine((text) => /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) && !Number.isNaN(Date.parse(text)), `${name} must be a date such as 2026-11-24 or an ISO date-time`)
    .transform((text) => new Date(text))
    .optional();

export const auditQuerySchema = z
  .object({
    tenantId: z.string().regex(/^[0-9A-Za-z]{8}$/, "tenantId must be a tenant id").optional(),
    limit: z.coerce.number({ error: "limit must be a number" }).int("limit must be a whole number").min(1, "limit must be at least 1").max(500, "limit must be at most 500").default(100),
    before: z.string().regex(AUDIT_ID_PATTERN, "before must be the id of an audit event").optional(),
    actor: z.string().min(1, "actor must not be empty").max(400, "actor must be at most 400 characters").optional(),
    action: z.string().regex(/^[a-z_.]{1,64}$/, "action must be an action name, such as rules.replace, or a prefix ending in a dot").optional(),
    from: auditTime("from"),
    to: auditTime("to"),
  })
  .strict();

/**
 * GET /api/admin/keys/{keyId}/quota: `ip` and `identifier` name whose counter the key's `ip` and
 * `identifier` rules are read for (without them those rules are listed unread).
 */
export const keyQuotaQuerySchema = z
  .object({
    ip: z
      .string()
      .trim()
      .pipe(z.union([z.ipv4(), z.ipv6()], { error: "ip must be an IPv4 or IPv6 address" }))
      .transform(normalizeIp)
      .optional(),
    identifier: identifierSchema.optional(),
  })
  .strict();

/** DELETE /api/admin/tenants/{tenantId}/rules/{rule}/counters: whose counter to reset. */
export const identifierResetQuerySchema = z.object({ identifier: identifierSchema }).strict();

/** GET /api/admin/tenants/{tenantId}/quota takes no query parameters. */
export const tenantQuotaQuerySchema = z.object({}).strict();

export type CreateTenantInput = z.input<typeof createTenantSchema>;
export type CreateKeyInput = z.input<typeof createKeySchema>;
