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
import { ID_PATTERN } from "../../common/apiKeyFormat";
import { futureExpiresAtSchema } from "../../policy/keys/keyExpiry";
import { roleSchema } from "../auth/operatorSchemas";

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
