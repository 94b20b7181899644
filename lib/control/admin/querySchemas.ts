/**
 * Query strings of admin routes (read by route handlers only, never by a form: these schemas use
 * server modules, lib/dataplane/admission's identifier schema and IP normalisation). One zod schema each.
 */
import { z } from "zod";
import { ID_PATTERN } from "../../common/apiKeyFormat";
import { AUDIT_ACTION_PATTERN, AUDIT_ACTOR_MAX, AUDIT_PAGE_MAX } from "../../common/fieldLimits";
import { identifierSchema } from "../../policy/rules/checkRequest";
import { normalizeIp } from "../../http/clientIp";
import { plainText } from "../../common/textInput";

/** Audit event ids are database sequence numbers, written in decimal. */
export const AUDIT_ID_PATTERN = /^[1-9][0-9]{0,17}$/;

/** GET /api/admin/audit: newest first, `limit` per page, `before` = the last id of the previous page. */
/** A time bound of the audit filter: an ISO date ("2026-11-24") or date-time. */
const auditTime = (name: string) =>
  z
    .string()
    .refine(
      (text) => /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) && !Number.isNaN(Date.parse(text)),
      `${name} must be a date such as 2026-11-24 or an ISO date-time`,
    )
    .transform((text) => new Date(text))
    .optional();

export const auditQuerySchema = z
  .object({
    tenantId: z.string().regex(ID_PATTERN, "tenantId must be a tenant id").optional(),
    limit: z.coerce
      .number({ error: "limit must be a number" })
      .int("limit must be a whole number")
      .min(1, "limit must be at least 1")
      .max(AUDIT_PAGE_MAX, `limit must be at most ${AUDIT_PAGE_MAX}`)
      .default(100),
    before: z.string().regex(AUDIT_ID_PATTERN, "before must be the id of an audit event").optional(),
    actor: z
      .string()
      .min(1, "actor must not be empty")
      .max(AUDIT_ACTOR_MAX, `actor must be at most ${AUDIT_ACTOR_MAX} characters`)
      .optional(),
    action: z
      .string()
      .regex(AUDIT_ACTION_PATTERN, "action must be an action name, such as rules.replace, or a prefix ending in a dot")
      .optional(),
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

/** GET /api/admin/tenants/{tenantId}/grants: optionally only a JWT subject's or a tier's grants. */
export const callerGrantQuerySchema = z
  .object({
    subject: plainText(
      z.string().min(1, "subject must not be empty").max(256, "subject must be at most 256 characters"),
      "subject",
    ).optional(),
    tier: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "tier must be a tier name")
      .optional(),
  })
  .strict();
