/**
 * Bearer credentials: the token of an `Authorization: Bearer <token>` header, and a constant-time
 * comparison of secrets. Used by the admin API (lib/control/admin/authorize.ts) and /api/metrics.
 */
import { createHash, timingSafeEqual } from "node:crypto";

const digest = (s: string): Buffer => createHash("sha256").update(s).digest();

/** Constant-time comparison of two secrets of any length. */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

/** The bearer token; "" for an Authorization header of another form; null without the header. */
export function bearerToken(headers: Headers): string | null {
  const auth = headers.get("authorization");
  if (!auth) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
  return match ? match[1]! : "";
}
