/**
 * Who may call the admin API. One function for every admin route: a bearer token equal to
 * SLUICE_ADMIN_TOKEN acts as `admin`; operator sessions (dashboard) resolve through the same
 * function. Missing or wrong credentials: 401; a `viewer` asking to change state: 403.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { config } from "../config";
import { AppError } from "../http/errors";
import type { Actor } from "../audit/auditLog";

export type Access = "read" | "write";

const digest = (s: string): Buffer => createHash("sha256").update(s).digest();

/** Constant-time comparison of two secrets of any length. */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

function bearer(headers: Headers): string | null {
  const auth = headers.get("authorization");
  if (!auth) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return match ? match[1]! : "";
}

export type SessionResolver = (request: Request) => Promise<Actor | null>;

export async function authorize(
  request: Request,
  access: Access,
  options: { adminToken?: string; session?: SessionResolver } = {},
): Promise<Actor> {
  const adminToken = options.adminToken ?? config().adminToken;
  const token = bearer(request.headers);
  let actor: Actor | null = null;
  if (token !== null) {
    if (!adminToken || !sameSecret(token, adminToken)) throw new AppError("unauthorized", "The bearer token is not valid for the admin API.", { headers: { "WWW-Authenticate": 'Bearer realm="sluice-admin"' } });
    actor = { id: "token", role: "admin" };
  } else if (options.session) {
    actor = await options.session(request);
  }
  if (!actor) throw new AppError("unauthorized", "Log in, or send Authorization: Bearer <SLUICE_ADMIN_TOKEN>.", { headers: { "WWW-Authenticate": 'Bearer realm="sluice-admin"' } });
  if (access === "write" && actor.role !== "admin") throw new AppError("forbidden", "Your role (viewer) may read but not change anything.");
  return actor;
}
