/**
 * Key expiry: the instant from which an API key is refused (401) like a revoked one.
 *
 * Contract
 * - `expiresAt` is an ISO 8601 date-time with a zone (`2026-12-31T23:59:59Z` or an offset) or null
 *   (never expires); anything else is a 422 naming `expiresAt`.
 * - At creation (POST .../keys) an expiry must lie in the future: a key born expired is a mistake.
 *   An edit (PATCH /api/admin/keys/{keyId}) may set any instant, the past included: that expires
 *   the key at once (and, unlike a revocation, can be undone by another edit).
 * - `isExpired(expiresAtMs, nowMs)` is the one comparison enforcement makes, per request, against
 *   the instance's clock (lib/policy/compiled/accessCache.ts): the key is expired from its instant on.
 */
import { z } from "zod";

/** An ISO date-time with a zone, or null; parsed to a Date. */
export const expiresAtSchema = z
  .union(
    [
      z.iso.datetime({
        offset: true,
        error: "expiresAt must be an ISO 8601 date-time with a zone, e.g. 2026-12-31T23:59:59Z",
      }),
      z.null(),
    ],
    {
      error: "expiresAt must be an ISO 8601 date-time with a zone, or null",
    },
  )
  .transform((value) => (value === null ? null : new Date(value)));

/** Creation: like `expiresAtSchema`, and the instant must be after `now()`. */
export function futureExpiresAtSchema(now: () => number = Date.now) {
  return expiresAtSchema.refine((date) => date === null || date.getTime() > now(), {
    message: "expiresAt must be in the future",
  });
}

/** PATCH /api/admin/keys/{keyId}. */
export const keyExpirySchema = z.object({ expiresAt: expiresAtSchema }).strict();

export type KeyExpiryInput = z.input<typeof keyExpirySchema>;

export function isExpired(expiresAtMs: number | null, nowMs: number): boolean {
  return expiresAtMs !== null && nowMs >= expiresAtMs;
}
