/**
 * Who the caller of a request on a tenant's host is (CONTRACT.md, "Sluice in front of any API",
 * Callers), in this order:
 * 1. a Sluice API key, when the tenant accepts them (`apiKeys`): `Authorization: Bearer <key>`
 *    shaped like a Sluice key, else `x-api-key`. It must be live and the tenant's own (another
 *    tenant's key: 401). With `apiKeys` off, an `x-api-key` is a 401;
 * 2. else a JWT in `Authorization: Bearer`, when the tenant set `jwt`: verified by its verifier
 *    (lib/policy/identity/jwtVerifier.ts); the caller is the token's subject;
 * 3. else, with no credential at all, an anonymous caller, when the tenant allows them.
 * A credential that is present but not valid is a 401, never anonymous. Only `Authorization:
 * Bearer` and `x-api-key` are credentials here: another scheme (`Basic`, `Digest`) is the upstream's
 * business, passes on unchanged, and leaves the caller anonymous.
 * Answers the caller, or `{ refused }`: the 401's reason (admission answers it through the
 * anonymous limit, as for a bad key) or the 503 of a JWKS that cannot be had.
 */
import { hash } from "node:crypto";
import { keyIdOf, verifyKey } from "../../policy/keys/apiKeySecret";
import type { AccessCache } from "../../policy/compiled/accessCache";
import type { KeyAccess } from "../../policy/compiled/accessLoader";
import { DEFAULT_IDENTITY } from "../../policy/identity/identitySchema";
import type { HeaderSource } from "./credentials";

/** The prefix of a JWT subject where a key id goes in a counter's key: key ids are base62, never `~`. */
export const JWT_SUBJECT_MARK = "~";

const PLAIN_SUBJECT = /^[A-Za-z0-9._@|+-]{1,64}$/;

/**
 * How a JWT caller appears in the monitoring data (hot callers, recent decisions): `~<sub>` when
 * the subject is short and plain, else `~#` and 22 characters of its SHA-256, so no subject can
 * break the monitoring members' separators (`/`, `:`) or grow their keys.
 */
export function jwtMonitoringId(subject: string): string {
  return (
    JWT_SUBJECT_MARK + (PLAIN_SUBJECT.test(subject) ? subject : "#" + hash("sha256", subject, "base64url").slice(0, 22))
  );
}

export type HostCaller =
  | { kind: "key"; key: KeyAccess; credential: "authorization" | "x-api-key" }
  | { kind: "jwt"; subject: string; tier?: string }
  | { kind: "anonymous" }
  | { refused: "unauthorized" | "jwks_unavailable"; reason: string };

const BEARER = /^Bearer\s+(\S+)\s*$/i;

function accepted(apiKeys: boolean, jwt: boolean, anonymous: boolean): string {
  const ways = [
    ...(apiKeys ? ["a Sluice API key (Authorization: Bearer <key> or x-api-key)"] : []),
    ...(jwt ? ["a JWT (Authorization: Bearer <token>)"] : []),
  ];
  if (ways.length === 0) return anonymous ? "no credential" : "nothing: it accepts no caller yet";
  return ways.join(" or ");
}

export async function hostCaller(access: AccessCache, tenantId: string, headers: HeaderSource): Promise<HostCaller> {
  const identity = access.tenant(tenantId)?.identity ?? DEFAULT_IDENTITY;
  const auth = headers.get("authorization");
  const bearer = auth ? BEARER.exec(auth)?.[1] : undefined;
  const apiKey = headers.get("x-api-key")?.trim() || undefined;
  const keyShaped = bearer !== undefined && keyIdOf(bearer) !== null;
  if (identity.apiKeys && (keyShaped || apiKey)) {
    const presented = keyShaped ? bearer : apiKey!;
    const keyId = keyIdOf(presented);
    const key = keyId ? access.liveKey(keyId) : undefined;
    if (!key || key.tenantId !== tenantId || !verifyKey(presented, key.secretHash))
      return {
        refused: "unauthorized",
        reason: "The API key is malformed, unknown, revoked, expired or not this API's.",
      };
    return { kind: "key", key, credential: keyShaped ? "authorization" : "x-api-key" };
  }
  if (apiKey && !identity.apiKeys)
    return { refused: "unauthorized", reason: "This API does not accept Sluice API keys." };
  if (bearer !== undefined) {
    const verifier = access.jwtVerifier(tenantId);
    if (!verifier)
      return {
        refused: "unauthorized",
        reason: `The bearer credential is not accepted: this API takes ${accepted(identity.apiKeys, false, identity.anonymous)}.`,
      };
    const verdict = await verifier.verify(bearer);
    if (verdict.ok)
      return verdict.tier
        ? { kind: "jwt", subject: verdict.subject, tier: verdict.tier }
        : { kind: "jwt", subject: verdict.subject };
    return { refused: verdict.unavailable ? "jwks_unavailable" : "unauthorized", reason: verdict.reason };
  }
  if (auth && /^Bearer\b/i.test(auth))
    return { refused: "unauthorized", reason: "The bearer credential is malformed." };
  if (identity.anonymous) return { kind: "anonymous" };
  return {
    refused: "unauthorized",
    reason: `A credential is required: this API takes ${accepted(identity.apiKeys, identity.jwt !== null, false)}.`,
  };
}
