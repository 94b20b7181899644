/**
 * Email and password login. Answers a new session, or throws AppError:
 * - `unauthorized` (401) "Wrong email or password." for an unknown email and for a wrong password
 *   alike, in about the same time (an unknown email is verified against a dummy hash);
 * - `rate_limited` (429) with `Retry-After` (whole seconds) and the time to try again, once the
 *   address, the (email, address) pair or the email has used up its failed attempts (loginLimit.ts;
 *   an address without failures for the email is never refused for the email's ceiling alone).
 * - `forbidden` (403) while SLUICE_PASSWORD_LOGIN=0 (single sign-on only), before anything is checked.
 * An operator created by single sign-on has no password: every password fails for it, as for an
 * unknown email. The first admin is ensured before the first check, so a fresh install can log in at once.
 */
import { config } from "../../config/config";
import { AppError } from "../../http/errors";
import type { Limiter } from "../../limiter/decide";
import { retryAfterSeconds } from "../../limiter/headers";
import { limitingAddress } from "../../limiter/limitingAddress";
import { ensureFirstAdmin } from "./firstAdmin";
import { checkLoginAllowed, loginSubject, recordLoginFailure } from "./loginLimit";
import type { LoginInput, Role } from "./operatorSchemas";
import { findOperatorForLogin } from "./operatorStore";
import { verifyNothing, verifyPassword } from "./passwordHash";
import { SerialByKey } from "./serialByKey";
import { SSO_ERRORS } from "./ssoErrors";
import { createSession, type NewSession } from "./sessionStore";

export interface LoggedIn {
  session: NewSession;
  operator: { email: string; role: Role; tenantIds: string[] };
}

const attempts = new SerialByKey();

function limited(retryAfterMs: number, retryAt: Date): AppError {
  const seconds = retryAfterSeconds(retryAfterMs);
  return new AppError(
    "rate_limited",
    `Too many failed logins. Try again in ${seconds} s (at ${retryAt.toISOString()}).`,
    {
      headers: { "Retry-After": String(seconds) },
    },
  );
}

export async function logIn(input: LoginInput, ip: string, limiter: Limiter): Promise<LoggedIn> {
  if (!config().passwordLogin) throw new AppError("forbidden", SSO_ERRORS.password_off);
  await ensureFirstAdmin();
  const subject = loginSubject(ip, input.email);
  // Serialised per limiting subject, so a host rotating through its IPv6 /64 is still one line.
  return attempts.run([`ip:${limitingAddress(ip)}`, `email:${input.email}`], async () => {
    const gate = await checkLoginAllowed(limiter, subject);
    if (!gate.allowed) throw limited(gate.retryAfterMs, gate.retryAt);
    const operator = await findOperatorForLogin(input.email);
    const ok = operator?.passwordHash
      ? await verifyPassword(operator.passwordHash, input.password)
      : await verifyNothing(input.password);
    if (!operator || !ok) {
      await recordLoginFailure(limiter, subject);
      throw new AppError("unauthorized", "Wrong email or password.");
    }
    const session = await createSession(operator.id);
    return { session, operator: { email: operator.email, role: operator.role, tenantIds: operator.tenantIds ?? [] } };
  });
}
