/**
 * Timestamped HMAC signatures in the manner of Stripe's webhooks, for every message Sluice signs:
 * alert deliveries (`Sluice-Signature`, lib/control/alerts/webhookSignature.ts) and requests the
 * gateway forwards (`X-Sluice-Signature`, lib/policy/upstreams/upstreamSignature.ts).
 *
 * Contract
 * - The header value is `t=<unix seconds>,v1=<hex>`, `v1` = HMAC-SHA256(key = the secret as UTF-8
 *   text, message = `messageAt(t)`); each use defines its message, which must start with `t`.
 * - `verifyTimedSignature` is what a receiver does: it refuses a `t` more than `toleranceSeconds`
 *   from its clock (replays), recomputes the HMAC and compares in constant time. Several `v1`
 *   entries may appear (secret rotation); one match suffices. A malformed or missing header: false.
 * - Secrets are `<prefix>` + 32 random bytes in base64url; a hint is the prefix and the last 4.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const DEFAULT_TOLERANCE_SECONDS = 300;

export function generateSecret(prefix: string): string {
  return prefix + randomBytes(32).toString("base64url");
}

/** `whsec_…abcd`: enough to tell two secrets apart, never enough to sign. */
export function hintOf(prefix: string, secret: string): string {
  return `${prefix}…${secret.slice(-4)}`;
}

export function hmacHex(secret: string, message: string): string {
  return createHmac("sha256", secret).update(message).digest("hex");
}

/** The header value for a message signed at `nowMs`. */
export function timedSignature(secret: string, nowMs: number, messageAt: (t: number) => string): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${hmacHex(secret, messageAt(t))}`;
}

export function verifyTimedSignature(
  secret: string,
  header: string | null | undefined,
  nowMs: number,
  messageAt: (t: number) => string,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): boolean {
  if (!header) return false;
  let t: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const [name, value] = part.trim().split("=", 2);
    if (name === "t" && value && /^\d+$/.test(value)) t = Number(value);
    else if (name === "v1" && value) candidates.push(value);
  }
  if (t === null || Math.abs(nowMs / 1000 - t) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, messageAt(t)), "hex");
  return candidates.some((candidate) => {
    const given = Buffer.from(candidate, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
