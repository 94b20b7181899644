/**
 * Who may call the admin API. One function for every admin route: a bearer token equal to
 * SLUICE_ADMIN_TOKEN acts as `admin`; operator sessions (dashboard) resolve through the same
 * function. Missing or wrong credentials: 401; a `viewer` asking to change state: 403. An address
 * that sent too many wrong bearer tokens: 429 before its token is compared
 * (lib/control/auth/bearerFailures.ts).
 */
import { bearerFailures, type BearerFailures } from "../auth/bearerFailures";
import { config } from "../../config/config";
import { clientIp } from "../../dataplane/admission/clientIp";
import { bearerToken as bearer, sameSecret } from "../../http/bearerToken";
import { AppError } from "../../http/errors";
import type { Actor } from "../../policy/audit/auditLog";

export { sameSecret };

export type Access = "read" | "write";

export type SessionResolver = (request: Request) => Promise<Actor | null>;

export async function authorize(
  request: Request,
  access: Access,
  options: { adminToken?: string; session?: SessionResolver; failures?: BearerFailures } = {},
): Promise<Actor> {
  const adminToken = options.adminToken ?? config().adminToken;
  const token = bearer(request.headers);
  let actor: Actor | null = null;
  if (token !== null) {
    const failures = options.failures ?? bearerFailures();
    const ip = clientIp(request.headers, config().trustProxy);
    failures.assertMayTry(ip);
    if (!adminToken || !sameSecret(token, adminToken)) {
      failures.recordFailure(ip);
      throw new AppError("unauthorized", "The bearer token is not valid for the admin API.", {
        headers: { "WWW-Authenticate": 'Bearer realm="sluice-admin"' },
      });
    }
    actor = { id: "token", role: "admin" };
  } else if (options.session) {
    actor = await options.session(request);
  }
  if (!actor)
    throw new AppError("unauthorized", "Log in, or send Authorization: Bearer <SLUICE_ADMIN_TOKEN>.", {
      headers: { "WWW-Authenticate": 'Bearer realm="sluice-admin"' },
    });
  if (access === "write" && actor.role !== "admin")
    throw new AppError("forbidden", "Your role (viewer) may read but not change anything.");
  return actor;
}
