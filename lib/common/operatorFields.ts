/**
 * The operator fields that the start-up configuration (SLUICE_ADMIN_EMAIL / SLUICE_ADMIN_PASSWORD,
 * lib/config/config.ts) and the admin API (lib/control/auth/operatorSchemas.ts) both check: here,
 * below both, so the configuration never imports upward.
 *
 * - Emails are trimmed and lower-cased before anything else sees them.
 * - New passwords: 12 to 1024 characters (OWASP: a length floor, no composition rules; the
 *   ceiling only bounds the work of hashing).
 */
import { z } from "zod";
import { plainText } from "./textInput";

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 1024;

export const emailSchema = plainText(
  z
    .string({ error: "email is required and must be text" })
    .trim()
    .toLowerCase()
    .max(254, "email must be at most 254 characters"),
  "email",
).pipe(z.email("email must be an email address"));

export const newPasswordSchema = z
  .string({ error: "password is required and must be text" })
  .min(MIN_PASSWORD_LENGTH, `password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `password must be at most ${MAX_PASSWORD_LENGTH} characters`);
