/**
 * The one place monitoring keys are named, and the time units and bounds they are built on.
 * Monitoring keys are distinct from the limiter's counter keys (lib/limiter/keys.ts): after the
 * hash tag they start with `m`, which no algorithm char uses (a test pins this).
 *
 * `<prefix>{<scope>}m<kind>...`, where scope is a tenant id (its keys share the tenant's Redis
 * Cluster slot) or `-` for the global keys (one slot of their own):
 *
 * | key                          | type | content                                               |
 * | ---------------------------- | ---- | ----------------------------------------------------- |
 * | `{S}ms<ref>:<epoch minute>`  | hash | per-second cells `<second 0-59><a|r|s>` → count       |
 * | `{S}mm<ref>:<epoch hour>`    | hash | per-minute cells `<minute 0-59><a|r|s>` → count       |
 * | `{T}mr:<epoch hour>`         | zset | rule ref → refusals + would-be refusals: refs with traffic |
 * | `{-}mt:<epoch hour>`         | zset | tenant id → refused requests: tenants with traffic    |
 * | `{S}mk<m|h>:<minute|hour>`   | zset | client → requests, top HOT_KEYS_KEPT                  |
 * | `{S}me<m|h>:<minute|hour>`   | zset | descriptor subject `[tenantId, ref, value]` (JSON) → ShouldRateLimit calls, top HOT_KEYS_KEPT |
 * | `{S}mf<m|h>:<minute|hour>`   | zset | descriptor subject → calls its rule refused, top REFUSALS_KEPT |
 * | `{S}mx<m|h>:<minute|hour>`   | zset | client, and client/ref → refusals, top REFUSALS_KEPT  |
 * | `{S}mn<m|h>:<minute|hour>`   | zset | client/ref/capacity → lowest remaining/capacity seen, lowest LOWS_KEPT |
 * | `{S}ml:<minute>`              | zset | refused subject (lib/monitoring/record/limitedSubjects.ts) → latest refusal (epoch ms), newest LIMITED_KEPT |
 * | `{S}mc:<minute>`              | zset | refused subject → refusals in the minute, top LIMITED_KEPT |
 * | `{T}md<keyId>`               | list | the key's last RECENT_DECISIONS_KEPT decisions, JSON, newest first |
 * | `{T}mq`                      | stream | the tenant's request trace for the simulator (lib/monitoring/record/requestTrace.ts) |
 * | `{-}mg:<epoch minute>`       | hash | metering cells written by flushes started in that minute, `<tenant>\t<hour>\t<caller>\t<rule>\t<tier>\t<a|r|u>` → count (usageTally.ts), rolled up into Postgres and deleted once the minute is closed (lib/monitoring/usage/usageRollup.ts) |
 * | `{-}mz`                      | string | the loss mark: kept alive by every instance's usage guard; gone means Redis lost its data (lib/monitoring/usage/usageSeed.ts) |
 * | `{T}mu:<epoch hour>`         | hash | upstream answers per minute `<minute 0-59>:<2xx|3xx|4xx|5xx|502|504|l<bucket>>` → count (upstreamOutcomes.ts) |
 *
 * `<ref>` is a rule's counter ref, or `*` for the tenant's requests as a whole (the global scope
 * keeps only `*`: every real tenant's requests together). A client is a caller (a key id, a JWT
 * subject's `~<id>`, an anonymous `@<ip>`: lib/monitoring/record/callerMember.ts) in a tenant's keys
 * and `<tenantId>:<caller>` in the global ones; near-limit sets hold key ids only. Every key gets a TTL of RETENTION_MS at each write,
 * so nothing is kept longer than 24 h (plus a margin) after its last write; per-second and
 * per-minute hashes hold at most 180 fields, sorted sets at most their `*_KEPT` members, and lists
 * RECENT_DECISIONS_KEPT entries, the trace about SLUICE_SIM_MAX_REQUESTS entries of at most 24 h. The indexes `mr` and `mt` are bounded by the tenant's rule names and
 * the number of tenants.
 * Throws on a scope that cannot be part of a key (lib/limiter/keys.ts `tenantKeyPrefix`).
 */
import { tenantKeyPrefix } from "../../limiter/keys";

export const SECOND_MS = 1_000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** 24 h plus a margin, counted from each key's last write (a minute key's last write is in or just after its minute). */
export const RETENTION_MS = DAY_MS + 10 * MINUTE_MS;

/** What a tenant id, key id or rule ref must look like to be part of a monitoring key or member. */
export const SAFE_PART = /^[A-Za-z0-9_-]{1,64}$/;

/** The scope of the global keys; never a tenant id (those are 8 base62 characters). */
export const GLOBAL_SCOPE = "-";
/** The pseudo rule ref of a tenant's requests as a whole. */
export const TOTAL_REF = "*";

/** Sorted sets are trimmed to these sizes after every write; all stay within Redis's compact listpack encoding (128). */
export const HOT_KEYS_KEPT = 100;
export const REFUSALS_KEPT = 120;
export const LOWS_KEPT = 100;
export const LIMITED_KEPT = 100;
/** Recent decisions kept per API key (a Redis list trimmed at every write). */
export const RECENT_DECISIONS_KEPT = 50;

export const RESOLUTIONS = ["minute", "hour"] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
export type CellKind = "a" | "r" | "s";

/** Pseudo-tenants (`-anon`, the unauthenticated requests) are recorded on their own, never in global totals. */
export function isPseudoTenant(tenantId: string): boolean {
  return tenantId.startsWith("-");
}

export const minuteOf = (ms: number): number => Math.floor(ms / MINUTE_MS);
export const hourOf = (ms: number): number => Math.floor(ms / HOUR_MS);

/** The client member of hot-key and near-limit sets: a key id per tenant, tenant-qualified globally. */
export function clientMember(scope: string, tenantId: string, keyId: string): string {
  return scope === GLOBAL_SCOPE ? `${tenantId}:${keyId}` : keyId;
}

export function parseClientMember(scope: string, member: string): { tenantId: string; keyId: string } {
  if (scope !== GLOBAL_SCOPE) return { tenantId: scope, keyId: member };
  const colon = member.indexOf(":");
  return { tenantId: member.slice(0, colon), keyId: member.slice(colon + 1) };
}

export interface MonitoringKeys {
  seconds(ref: string, minute: number): string;
  minutes(ref: string, hour: number): string;
  rules(hour: number): string;
  tenants(hour: number): string;
  hotKeys(resolution: Resolution, index: number): string;
  refusals(resolution: Resolution, index: number): string;
  /** Descriptor subjects of Envoy's calls, scored by calls. */
  hotDescriptors(resolution: Resolution, index: number): string;
  /** Descriptor subjects, scored by the calls their rule refused. */
  descriptorRefusals(resolution: Resolution, index: number): string;
  lows(resolution: Resolution, index: number): string;
  /** Refused subjects of a minute, scored by their latest refusal (epoch ms). */
  limited(minute: number): string;
  /** Refused subjects of a minute, scored by their refusals. */
  limitedCounts(minute: number): string;
  /** Only in a tenant's scope. */
  recent(keyId: string): string;
  /** Only in a tenant's scope: the request trace (a stream). */
  trace(): string;
  /** Only in a tenant's scope: its upstream's answers of an hour, per minute (upstreamOutcomes.ts). */
  upstream(hour: number): string;
  /** Only in the global scope: the metering cells flushed in an epoch minute (usageTally.ts). */
  usage(minute: number): string;
}

const letter = (resolution: Resolution): string => (resolution === "minute" ? "m" : "h");

/** The keys of one scope: a tenant id, or GLOBAL_SCOPE. */
export function monitoringKeys(prefix: string, scope: string): MonitoringKeys {
  const base = `${tenantKeyPrefix(prefix, scope)}m`;
  return {
    seconds: (ref, minute) => `${base}s${ref}:${minute}`,
    minutes: (ref, hour) => `${base}m${ref}:${hour}`,
    rules: (hour) => `${base}r:${hour}`,
    tenants: (hour) => `${base}t:${hour}`,
    hotKeys: (resolution, index) => `${base}k${letter(resolution)}:${index}`,
    refusals: (resolution, index) => `${base}x${letter(resolution)}:${index}`,
    hotDescriptors: (resolution, index) => `${base}e${letter(resolution)}:${index}`,
    descriptorRefusals: (resolution, index) => `${base}f${letter(resolution)}:${index}`,
    lows: (resolution, index) => `${base}n${letter(resolution)}:${index}`,
    limited: (minute) => `${base}l:${minute}`,
    limitedCounts: (minute) => `${base}c:${minute}`,
    recent: (keyId) => `${base}d${keyId}`,
    trace: () => `${base}q`,
    upstream: (hour) => `${base}u:${hour}`,
    usage: (minute) => `${base}g:${minute}`,
  };
}
