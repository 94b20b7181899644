/**
 * Input of POST /api/admin/tokens, shared by the route and the dashboard form.
 *
 * - `name`: 1-64 of letters, digits, `.`, `_`, `-`: it is the audit actor (`token:<name>`), so it
 *   must read unambiguously in the log; unique (a duplicate is a 409).
 * - `role`: admin or viewer, as for operators.
 * - `tenantId`: optional; limits the token to that tenant (an unknown tenant is a 422).
 * - `expiresAt`: optional ISO date-time with a zone, in the future (as for API keys), or null.
 */
import { z } from "zod";
import { ADMIN_TOKEN_PATTERN, ID_PATTERN } from "../../common/apiKeyFormat";
import { isoTimeSchema } from "../../common/isoTime";
import { futureExpiresAtSchema } from "../../policy/keys/keyExpiry";
import { ROLES, roleSchema } from "../auth/operatorSchemas";

export const TOKEN_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export const tokenNameSchema = z
  .string({ error: "name is required and must be text" })
  .trim()
  .regex(TOKEN_NAME_PATTERN, "name must be 1-64 letters, digits, '.', '_' or '-'");

export function createTokenSchema(now: () => number = Date.now) {
  return z
    .object({
      name: tokenNameSchema,
      role: roleSchema,
      tenantId: z
        .string({ error: "tenantId must be a tenant id" })
        .regex(ID_PATTERN, "tenantId must be a tenant id")
        .nullish()
        .transform((value) => value ?? null),
      expiresAt: futureExpiresAtSchema(now)
        .optional()
        .transform((value) => value ?? null),
    })
    .strict();
}

export type CreateTokenInput = z.output<ReturnType<typeof createTokenSchema>>;

/** A token as the admin API lists it: never its secret or hash. */
export const tokenViewSchema = z.object({
  id: z.string(),
  name: z.string().meta({ description: "Changes made with the token are audited as `token:<name>`." }),
  role: z.enum(ROLES),
  tenantId: z.string().nullable().meta({ description: "The one tenant the token may touch; null: every tenant." }),
  expiresAt: isoTimeSchema.nullable(),
  lastUsedAt: isoTimeSchema
    .nullable()
    .meta({ description: "Written at most once a minute per instance: up to a minute stale." }),
  createdBy: z.string().meta({ description: "The audit actor that created it." }),
  createdAt: isoTimeSchema,
});
export type TokenView = z.infer<typeof tokenViewSchema>;

/** The answer to a creation: the token's settings and its secret (its bookkeeping is in the list). */
export const createdTokenSchema = tokenViewSchema
  .pick({ id: true, name: true, role: true, tenantId: true, expiresAt: true })
  .extend({
    token: z
      .string()
      .regex(ADMIN_TOKEN_PATTERN)
      .meta({ description: "`sluice_tok_<secret>`: shown only in this answer; only its hash is stored." }),
  });
export type CreatedTokenAnswer = z.infer<typeof createdTokenSchema>;

/** What the store's creation gives: the whole view and the secret (answered once, never stored). */
export type CreatedToken = TokenView & { token: string };
