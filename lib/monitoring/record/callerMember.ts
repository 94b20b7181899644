/**
 * Who a request's caller is in the hot-callers sets (`mk`, `mx`: lib/monitoring/record/monitoringKeys.ts),
 * and back: a Sluice API key by its id, a JWT caller by its safe subject id (`~sub` or `~#<hash>`,
 * lib/dataplane/admission/hostCaller.ts jwtMonitoringId), an anonymous caller of a tenant host by
 * its address (`@<ip>`). Key ids are base62, so the marks never collide with one.
 *
 * Contract
 * - `callerOf` answers the member and its kind, or null for a request with no caller to show (a
 *   pseudo-tenant's anonymous traffic, a malformed id or address: nothing else is skipped).
 * - Members never hold `/` (the refusal sets' `<client>/<ref>` separator) and are at most 66
 *   characters; in the global sets they follow `<tenantId>:` (parsed at the first colon, so an
 *   IPv6 address's colons are kept).
 * - `callerOfMember` reads a member back: its kind and the caller as shown (the id, the subject
 *   without its mark, the address).
 */
import { isPseudoTenant } from "./monitoringKeys";

export const CALLER_KINDS = ["key", "jwt", "anonymous"] as const;
export type CallerKind = (typeof CALLER_KINDS)[number];

export const JWT_CALLER_MARK = "~";
export const ANONYMOUS_CALLER_MARK = "@";

const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** jwtMonitoringId's two forms: a short plain subject, or `#` and 22 base64url characters of its hash. */
const JWT_ID = /^~(?:#[A-Za-z0-9_-]{22}|[A-Za-z0-9._@|+-]{1,64})$/;
/** An IPv4 or IPv6 address as the data plane reports it (clientIp.ts), no zone or port. */
const ADDRESS = /^[0-9A-Fa-f.:]{2,45}$/;

export interface CallerMember {
  member: string;
  kind: CallerKind;
}

export function callerOf(tenantId: string, keyId: string | undefined, ip: string | undefined): CallerMember | null {
  if (keyId !== undefined) {
    if (KEY_ID.test(keyId)) return { member: keyId, kind: "key" };
    return JWT_ID.test(keyId) ? { member: keyId, kind: "jwt" } : null;
  }
  if (ip === undefined || isPseudoTenant(tenantId) || !ADDRESS.test(ip)) return null;
  return { member: ANONYMOUS_CALLER_MARK + ip, kind: "anonymous" };
}

export function callerOfMember(member: string): { kind: CallerKind; caller: string } {
  if (member.startsWith(JWT_CALLER_MARK)) return { kind: "jwt", caller: member.slice(1) };
  if (member.startsWith(ANONYMOUS_CALLER_MARK)) return { kind: "anonymous", caller: member.slice(1) };
  return { kind: "key", caller: member };
}
