/**
 * Signing of alert deliveries, in the manner of Stripe's webhooks.
 *
 * Each attempt carries `Sluice-Signature: t=<unix seconds>,v1=<hex>`, where `v1` is
 * HMAC-SHA256(key = the tenant's signing secret as UTF-8 text, message = `<t>.<raw body>`). A
 * receiver recomputes it over the raw body it received, compares in constant time, and refuses a
 * `t` too far from its clock (replays); `verifyWebhookSignature` does exactly that (docs/webhooks.md).
 * Several `v1` entries may appear (for secret rotation); one match suffices.
 * Secrets are `whsec_` + 32 random bytes in base64url (generateWebhookSecret).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "Sluice-Signature";
export const SECRET_PREFIX = "whsec_";
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function generateWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString("base64url");
}

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** The header value for a body sent at `nowMs`. */
export function signatureHeader(secret: string, body: string, nowMs: number): string {
  const t = Math.floor(nowMs / 1000);
  return `t=${t},v1=${signatureOf(secret, t, body)}`;
}

/** True when `header` holds a `v1` signature of `body` by `secret`, made within `toleranceSeconds` of `nowMs`. */
export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string | null,
  nowMs: number,
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
  const expected = Buffer.from(signatureOf(secret, t, body), "hex");
  return candidates.some((candidate) => {
    const given = Buffer.from(candidate, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** `whsec_…abcd`: enough to tell two secrets apart, never enough to sign. */
export function secretHint(secret: string): string {
  return `${SECRET_PREFIX}…${secret.slice(-4)}`;
}
