/**
 * Who may call the admin API. One function for every admin route: a bearer token equal to
 * SLUICE_ADMIN_TOKEN acts as `admin` (actor `token`); a scoped API token (`sluice_tok_…`,
 * lib/control/tokens) acts with its role and tenant limit as `token:<name>`, its use noted for
 * lastUsedAt; operator sessions (dashboard) resolve through the same function. Missing, wrong,
 * deleted or expired credentials: 401; a `viewer` asking to change state: 403 (the tenant limit is
 * applied per route by adminRoute, lib/control/admin/tenantScope.ts). An address
 * that sent too many wrong bearer tokens: 429 before its token is compared
 * (lib/control/auth/bearerFailures.ts).
 */
import { bearerFailures, type BearerFailures } from "../auth/bearerFailures";
import { config } from "../../config/config";
import { clientIp } from "../../http/clientIp";
import { bearerToken as bearer, sameSecret } from "../../http/bearerToken";
import { AppError } from "../../http/errors";
import type { Actor } from "../../policy/audit/auditLog";
import { findUsableToken, tokenActorId, type UsableToken } from "../tokens/tokenStore";
import { isAdminTokenShape } from "../tokens/tokenSecret";
import { tokenUsage } from "../tokens/tokenUsage";

export { sameSecret };

export type Access = "read" | "write";

export type SessionResolver = (request: Request) => Promise<Actor | null>;

export interface AuthorizeOptions {
  adminToken?: string;
  session?: SessionResolver;
  failures?: BearerFailures;
  /** The stored token a presented one is (tests inject one); default: Postgres, at Date.now(). */
  findToken?: (presented: string) => Promise<UsableToken | null>;
  /** Notes a token's use for its lastUsedAt; default: this process's batched recorder. */
  noteTokenUse?: (tokenId: string) => void;
}

/** The actor a presented bearer credential is, or null when it is none. */
async function bearerActor(token: string, adminToken: string | undefined, options: AuthorizeOptions) {
  if (adminToken && sameSecret(token, adminToken)) return { id: "token", role: "admin" } satisfies Actor;
  if (!isAdminTokenShape(token)) return null;
  const found = await (options.findToken ?? ((t: string) => findUsableToken(t, Date.now())))(token);
  if (!found) return null;
  (options.noteTokenUse ?? ((id: string) => tokenUsage().noteUse(id)))(found.id);
  return { id: tokenActorId(found.name), role: found.role, tenantId: found.tenantId } satisfies Actor;
}

export async function authorize(request: Request, access: Access, options: AuthorizeOptions = {}): Promise<Actor> {
  const adminToken = options.adminToken ?? config().adminToken;
  const token = bearer(request.headers);
  let actor: Actor | null = null;
  if (token !== null) {
    const failures = options.failures ?? bearerFailures();
    const ip = clientIp(request.headers, config().trustProxy);
    failures.assertMayTry(ip);
    actor = await bearerActor(token, adminToken, options);
    if (!actor) {
      failures.recordFailure(ip);
      throw new AppError(
        "unauthorized",
        "The bearer token is not valid for the admin API (unknown, revoked or expired).",
        {
          headers: { "WWW-Authenticate": 'Bearer realm="sluice-admin"' },
        },
      );
    }
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
