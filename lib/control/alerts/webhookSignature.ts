/**
 * Signing of alert deliveries, in the manner of Stripe's webhooks (lib/http/timedSignature.ts).
 *
 * Each attempt carries `Sluice-Signature: t=<unix seconds>,v1=<hex>`, where `v1` is
 * HMAC-SHA256(key = the tenant's signing secret as UTF-8 text, message = `<t>.<raw body>`). A
 * receiver recomputes it over the raw body it received, compares in constant time, and refuses a
 * `t` too far from its clock (replays); `verifyWebhookSignature` does exactly that (docs/webhooks.md).
 * Several `v1` entries may appear (for secret rotation); one match suffices.
 * Secrets are `whsec_` + 32 random bytes in base64url (generateWebhookSecret).
 */
import {
  DEFAULT_TOLERANCE_SECONDS,
  generateSecret,
  hintOf,
  timedSignature,
  verifyTimedSignature,
} from "../../http/timedSignature";

export const SIGNATURE_HEADER = "Sluice-Signature";
export const SECRET_PREFIX = "whsec_";

export function generateWebhookSecret(): string {
  return generateSecret(SECRET_PREFIX);
}

/** The header value for a body sent at `nowMs`. */
export function signatureHeader(secret: string, body: string, nowMs: number): string {
  return timedSignature(secret, nowMs, (t) => `${t}.${body}`);
}

/** True when `header` holds a `v1` signature of `body` by `secret`, made within `toleranceSeconds` of `nowMs`. */
export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string | null,
  nowMs: number,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): boolean {
  return verifyTimedSignature(secret, header, nowMs, (t) => `${t}.${body}`, toleranceSeconds);
}

/** `whsec_…abcd`: enough to tell two secrets apart, never enough to sign. */
export function secretHint(secret: string): string {
  return hintOf(SECRET_PREFIX, secret);
}
