/**
 * Who a request's caller is, admission's first step (lib/dataplane/admission/admit.ts).
 *
 * Contract
 * - Under /api/v1 (no `hostTenant`): the Sluice API key presented (lib/dataplane/admission/credentials.ts),
 *   live and verified; its tenant is the key's. No key, or one that is malformed, unknown, revoked,
 *   expired or does not verify: refused `unauthorized`.
 * - On a tenant's host (`hostTenant`): that tenant's caller (lib/dataplane/admission/hostCaller.ts): a key
 *   of the tenant, a JWT subject or an anonymous caller; refused `unauthorized` (a credential
 *   present but not valid, or none where one is required) or `jwks_unavailable`.
 * - Answers the `Client`, or a `CallerRefusal` with the 401's or 503's reason (admission answers a
 *   401 through the anonymous limit). Synchronous for a Sluice key under /api/v1 (the hot path
 *   allocates no promise); on a tenant's host hostCaller's promise (a JWT is verified
 *   asynchronously), which `hostClient` completes once awaited.
 * - `counterIdOf` and `monitoringIdOf` name the caller in a `key` rule's counter and in the
 *   monitoring data: a key's id for both; a JWT's subject marked with `~` (which no key id holds)
 *   and its safe form (hostCaller.ts jwtMonitoringId); nothing for an anonymous caller, which
 *   therefore meets no `key` rule.
 */
import { keyIdOf, verifyKey } from "../../policy/keys/apiKeySecret";
import type { AccessCache } from "../../policy/compiled/accessCache";
import { presentedKey, type HeaderSource } from "./credentials";
import { hostCaller, jwtMonitoringId, JWT_SUBJECT_MARK, type HostCaller } from "./hostCaller";
import type { Client } from "./outcome";
import { BAD_KEY_REASON, NO_KEY_REASON } from "./refusalReplies";

export interface CallerRefusal {
  refused: "unauthorized" | "jwks_unavailable";
  reason: string;
}

/** What caller resolution reads of a request. */
export interface CallerRequest {
  headers: HeaderSource;
  ip: string;
  hostTenant?: string;
}

// Shared, never mutated: a refused key allocates nothing.
const NO_KEY: CallerRefusal = { refused: "unauthorized", reason: NO_KEY_REASON };
const BAD_KEY: CallerRefusal = { refused: "unauthorized", reason: BAD_KEY_REASON };

/**
 * The caller under /api/v1, or, on a tenant's host, the promise of hostCaller's answer, which
 * `hostClient` turns into the caller once awaited (a promise of its own per request would cost CPU).
 */
export function resolveCaller(
  access: AccessCache,
  request: CallerRequest,
): Client | CallerRefusal | Promise<HostCaller> {
  if (request.hostTenant !== undefined) return hostCaller(access, request.hostTenant, request.headers);
  const presented = presentedKey(request.headers);
  if (presented === null) return NO_KEY;
  const keyId = keyIdOf(presented);
  const key = keyId ? access.liveKey(keyId) : undefined;
  if (!key || !verifyKey(presented, key.secretHash)) return BAD_KEY;
  return { tenantId: key.tenantId, key, ip: request.ip };
}

/** The caller on the tenant's host `request.hostTenant`, from hostCaller's answer. */
export function hostClient(caller: HostCaller, request: CallerRequest): Client | CallerRefusal {
  if ("refused" in caller) return caller;
  const tenantId = request.hostTenant!;
  const ip = request.ip;
  if (caller.kind === "key") return { tenantId, key: caller.key, ip, credential: caller.credential };
  if (caller.kind === "jwt")
    return caller.tier === undefined
      ? { tenantId, subject: caller.subject, ip, credential: null }
      : { tenantId, subject: caller.subject, tier: caller.tier, ip, credential: null };
  return { tenantId, ip, credential: null };
}

/** The `key` scope's counter id: the key id, a JWT caller's marked subject; undefined: anonymous. */
export function counterIdOf(client: Client): string | undefined {
  if (client.key) return client.key.id;
  return client.subject === undefined ? undefined : JWT_SUBJECT_MARK + client.subject;
}

/** Who the monitoring data shows: the key id, a JWT subject in a safe form; undefined: anonymous. */
export function monitoringIdOf(client: Client): string | undefined {
  if (client.key) return client.key.id;
  return client.subject === undefined ? undefined : jwtMonitoringId(client.subject);
}
