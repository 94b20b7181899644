/**
 * Inputs about operators, one zod schema each, shared by the admin API, the login route, the
 * start-up configuration (SLUICE_ADMIN_EMAIL / SLUICE_ADMIN_PASSWORD) and the dashboard forms.
 *
 * - Emails are trimmed and lower-cased before anything else sees them, so `Ops@Example.com` and
 *   `ops@example.com` are one operator (the unique index on Operator.email does the rest).
 * - New passwords: 12 to 1024 characters (OWASP: a length floor, no composition rules; the
 *   ceiling only bounds the work of hashing).
 * - The login schema checks shape only, never the password policy: a login must not tell
 *   which passwords could exist.
 */
import { z } from "zod";
import { isoTimeSchema } from "../../common/isoTime";
import { ID_PATTERN } from "../../common/apiKeyFormat";
import { plainText } from "../../common/textInput";
import { emailSchema, MAX_PASSWORD_LENGTH, newPasswordSchema } from "../../common/operatorFields";

// The fields the start-up configuration checks too live below it, in lib/common/operatorFields.ts.
export { emailSchema, newPasswordSchema, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../common/operatorFields";

export const ROLES = ["admin", "viewer"] as const;
export type Role = (typeof ROLES)[number];

export const roleSchema = z.enum(ROLES, { error: `role must be one of ${ROLES.join(", ")}` });

export const MAX_OPERATOR_TENANTS = 100;

/**
 * The tenants an operator is limited to (lib/control/admin/tenantScope.ts): up to 100 tenant ids,
 * duplicates dropped; `[]` lifts the limit (every tenant).
 */
export const operatorTenantIdsSchema = z
  .array(z.string({ error: "tenantIds must list tenant ids" }).regex(ID_PATTERN, "tenantIds must list tenant ids"), {
    error: "tenantIds must be a list of tenant ids",
  })
  .max(MAX_OPERATOR_TENANTS, `tenantIds must list at most ${MAX_OPERATOR_TENANTS} tenants`)
  .transform((ids) => [...new Set(ids)]);

export const createOperatorSchema = z
  .object({
    email: emailSchema,
    password: newPasswordSchema,
    role: roleSchema,
    tenantIds: operatorTenantIdsSchema.optional(),
  })
  .strict();

export const updateOperatorSchema = z
  .object({
    role: roleSchema.optional(),
    password: newPasswordSchema.optional(),
    tenantIds: operatorTenantIdsSchema.optional(),
  })
  .strict()
  .refine((input) => input.role !== undefined || input.password !== undefined || input.tenantIds !== undefined, {
    message: "send role, password, tenantIds or several of them",
  });

export const loginSchema = z
  .object({
    email: plainText(
      z
        .string({ error: "email is required and must be text" })
        .trim()
        .toLowerCase()
        .min(1, "email must not be empty")
        .max(254, "email must be at most 254 characters"),
      "email",
    ),
    password: z
      .string({ error: "password is required and must be text" })
      .min(1, "password must not be empty")
      .max(MAX_PASSWORD_LENGTH, `password must be at most ${MAX_PASSWORD_LENGTH} characters`),
  })
  .strict();

/** An operator as the admin API answers it: never the password hash. */
export const operatorViewSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  tenantIds: z.array(z.string()).meta({
    description:
      "The tenants this operator is limited to (403 on other tenants and instance-wide calls, as a tenant-limited token); empty: every tenant",
  }),
  createdAt: isoTimeSchema,
});
export type OperatorView = z.infer<typeof operatorViewSchema>;

/** The signed-in operator (GET /api/auth/me, the login's answer). */
export const sessionAnswerSchema = z.object({
  email: z.string(),
  role: z.enum(ROLES),
  tenantIds: z.array(z.string()).meta({
    description: "The tenants this operator is limited to; empty: every tenant (the dashboard shows only these)",
  }),
});
export type SessionAnswer = z.infer<typeof sessionAnswerSchema>;

/** Logout after a single sign-on session whose identity provider ends sessions (RP-initiated logout). */
export const logoutAnswerSchema = z.object({
  endSessionUrl: z.string().meta({
    description: "The identity provider's end_session_endpoint: send the browser there; it comes back to /login",
  }),
});
export type LogoutAnswer = z.infer<typeof logoutAnswerSchema>;

export type CreateOperatorInput = z.output<typeof createOperatorSchema>;
export type UpdateOperatorInput = z.output<typeof updateOperatorSchema>;
export type LoginInput = z.output<typeof loginSchema>;
