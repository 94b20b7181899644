/**
 * Verifies a tenant's JWT callers with jose (`jwtVerify`), as CONTRACT.md "Sluice in front of any
 * API" says: a token of at most 8 KiB, signed with an asymmetric algorithm (JWT_ALGORITHMS; `none`
 * and HS* never verify), by a key of the tenant's JWKS (lib/policy/identity/jwksSource.ts), `iss`
 * and `aud` matching when the tenant set them, `exp` and `nbf` holding with 30 s of leeway, and
 * the `subjectClaim` claim a string of 1 to 256 characters: the caller.
 *
 * Verified tokens are remembered (a bounded cache: at most 10,000 per verifier, dropped whole when
 * full), keyed by the SHA-256 of the whole token, so only the very same bytes, signature included,
 * ever hit; each entry lasts at most 60 s and never past the token's `exp` (plus the leeway): a
 * client sending the same token on every call pays for one signature check a minute, not one per
 * request. Refusals are not remembered.
 *
 * `verify` answers a value, never throws: `{ ok: true, subject, tier? }`, `{ ok: false, reason }`
 * (a 401, the reason safe to show the client), or `{ ok: false, unavailable: true }` (the JWKS was
 * never fetched and cannot be now: a 503). One verifier per tenant and settings, kept across access
 * cache reloads (accessCache.ts), so the JWKS cache survives them.
 */
import { hash } from "node:crypto";
import { errors, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { JWT_ALGORITHMS, type JwtSettings } from "./identitySchema";
import { inlineKeys, JwksUnavailableError, remoteKeys, type JwksSourceOptions } from "./jwksSource";

export const MAX_TOKEN_BYTES = 8 * 1024;
export const CLOCK_LEEWAY_S = 30;
export const MAX_SUBJECT_CHARS = 256;
export const VERIFIED_CACHE_MS = 60_000;
export const VERIFIED_CACHE_SIZE = 10_000;

export type JwtVerdict =
  | { ok: true; subject: string; tier?: string }
  | { ok: false; reason: string; unavailable?: false }
  | { ok: false; unavailable: true; reason: string };

export interface JwtVerifier {
  verify(token: string): Promise<JwtVerdict>;
}

const ALGORITHMS = [...JWT_ALGORITHMS];

/** A reason for each kind of bad token; jose's own message is not shown (it may quote claims). */
function reasonOf(error: unknown): string {
  if (error instanceof errors.JWTExpired) return "The token has expired (exp).";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "nbf") return "The token is not valid yet (nbf).";
    if (error.claim === "iss") return "The token's issuer (iss) is not accepted.";
    if (error.claim === "aud") return "The token's audience (aud) is not accepted.";
    return `The token's ${error.claim} claim is invalid.`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return "The token's algorithm is not accepted: only asymmetric signatures (RS*, PS*, ES*, EdDSA).";
  if (error instanceof errors.JWKSNoMatchingKey) return "No key of the tenant's key set matches the token (kid).";
  if (error instanceof errors.JWSSignatureVerificationFailed) return "The token's signature does not verify.";
  return "The token is malformed.";
}

export function createJwtVerifier(settings: JwtSettings, opts: JwksSourceOptions = {}): JwtVerifier {
  const keys: JWTVerifyGetKey = settings.jwks
    ? inlineKeys(settings.jwks as JSONWebKeySet)
    : remoteKeys(settings.jwksUrl!, opts);
  const options = {
    algorithms: ALGORITHMS,
    clockTolerance: CLOCK_LEEWAY_S,
    ...(settings.issuer ? { issuer: settings.issuer } : {}),
    ...(settings.audience ? { audience: settings.audience } : {}),
  };
  const clock = opts.now ?? Date.now;
  const verified = new Map<string, { verdict: JwtVerdict & { ok: true }; until: number }>();
  return {
    async verify(token) {
      if (token.length > MAX_TOKEN_BYTES) return { ok: false, reason: "The token is over 8 KiB." };
      const id = hash("sha256", token, "base64url");
      const known = verified.get(id);
      if (known) {
        if (clock() < known.until) return known.verdict;
        verified.delete(id);
      }
      let payload: Record<string, unknown>;
      try {
        const now = opts.now?.();
        ({ payload } = await jwtVerify(
          token,
          keys,
          now === undefined ? options : { ...options, currentDate: new Date(now) },
        ));
      } catch (error) {
        if (error instanceof JwksUnavailableError)
          return {
            ok: false,
            unavailable: true,
            reason: "The tenant's token keys cannot be fetched yet. Retry shortly.",
          };
        return { ok: false, reason: reasonOf(error) };
      }
      const subject = payload[settings.subjectClaim];
      if (typeof subject !== "string" || subject.length < 1 || subject.length > MAX_SUBJECT_CHARS)
        return {
          ok: false,
          reason: `The token's ${settings.subjectClaim} claim must be text of 1 to ${MAX_SUBJECT_CHARS} characters.`,
        };
      const tier = settings.tierClaim ? payload[settings.tierClaim] : undefined;
      const verdict: JwtVerdict & { ok: true } =
        typeof tier === "string" && tier !== "" ? { ok: true, subject, tier } : { ok: true, subject };
      const now = clock();
      const until = Math.min(
        now + VERIFIED_CACHE_MS,
        typeof payload.exp === "number" ? (payload.exp + CLOCK_LEEWAY_S) * 1000 : Infinity,
      );
      if (verified.size >= VERIFIED_CACHE_SIZE) verified.clear();
      verified.set(id, { verdict, until });
      return verdict;
    },
  };
}
