/**
 * Turns a batch of decisions (lib/monitoring/record/decisionBatch.ts) into Redis writes, grouped by scope
 * (a tenant id, or GLOBAL_SCOPE): each group touches only keys of one hash tag, so on a Cluster it
 * can go in one pipeline to one slot. Pure: no I/O, no clock.
 *
 * - Series cells go to the per-second hash of their minute and the per-minute hash of their hour;
 *   the tenant's `*` cells also to the global series (not for pseudo-tenants such as `-anon`).
 * - The hour's indexes: the tenant's rule refs with their refusals and would-be refusals (so shadow
 *   rules rank too), the global tenants with their refused requests (pseudo-tenants included, so
 *   unauthenticated refusals show as a line of their own).
 * - Clients (callers: API keys, JWT subjects, anonymous addresses) go to the tenant's and the global
 *   hot-key and refusal sets, per minute and per hour; descriptor subjects of Envoy's calls to the
 *   hot-descriptor sets likewise (their member names the tenant, so it is the same in both); lowest remaining fractions to the near-limit sets likewise. Scores of the near-limit
 *   sets are rounded to 1e-6 so they stay short.
 * - Refused subjects (lib/monitoring/record/limitedSubjects.ts) go to the tenant's and the global per-minute
 *   limited sets (pseudo-tenants too: refused anonymous IPs are "limited right now" as well), one
 *   scored by the latest refusal, one by the refusals.
 * - Upstream answers (upstreamOutcomes.ts) go to the tenant's hash of the hour, per minute.
 * - Recent decisions go to their key's list in the tenant's scope (newest at the head, trimmed to
 *   RECENT_DECISIONS_KEPT).
 * - Trace entries are not part of these groups: `traceChunks` writes them apart (see there).
 * Key layout and bounds: lib/monitoring/record/monitoringKeys.ts. Throws only on a scope that cannot be a
 * key part (the batch never holds one).
 */
import type { DecisionBatch } from "./decisionBatch";
import {
  clientMember,
  GLOBAL_SCOPE,
  HOT_KEYS_KEPT,
  isPseudoTenant,
  LIMITED_KEPT,
  LOWS_KEPT,
  MINUTE_MS,
  monitoringKeys,
  RECENT_DECISIONS_KEPT,
  REFUSALS_KEPT,
  RETENTION_MS,
  TOTAL_REF,
  type MonitoringKeys,
  type Resolution,
} from "./monitoringKeys";
import { DEFAULT_TRACE_MAX_REQUESTS } from "../../config/config";
import { TRACE_MAX_AGE_MS, type TraceBuffer } from "./requestTrace";
import { ScopeWrites, type WriteCommand } from "./scopeWrites";
import { usageField } from "./usageTally";

export type CommandGroups = Map<string, WriteCommand[]>;

const UNBOUNDED = Number.POSITIVE_INFINITY;

/** `nowMs`: when the flush starts; its minute names the metering hash the batch's usage cells go to. */
export function flushCommands(batch: DecisionBatch, prefix: string, nowMs: number = Date.now()): CommandGroups {
  const scopes = new Map<string, { keys: MonitoringKeys; writes: ScopeWrites }>();
  const scope = (id: string) => {
    let entry = scopes.get(id);
    if (!entry) scopes.set(id, (entry = { keys: monitoringKeys(prefix, id), writes: new ScopeWrites(RETENTION_MS) }));
    return entry;
  };
  /** The tenant's scope, and the global one unless the tenant is a pseudo-tenant. */
  const scopesOf = (tenantId: string) => (isPseudoTenant(tenantId) ? [tenantId] : [tenantId, GLOBAL_SCOPE]);

  for (const cell of batch.cells.values()) {
    const minute = Math.floor(cell.second / 60);
    const hour = Math.floor(cell.second / 3600);
    const targets = cell.ref === TOTAL_REF ? scopesOf(cell.tenantId) : [cell.tenantId];
    for (const id of targets) {
      const { keys, writes } = scope(id);
      for (const kind of ["a", "r", "s"] as const) {
        writes.hincr(keys.seconds(cell.ref, minute), `${cell.second % 60}${kind}`, cell[kind]);
        writes.hincr(keys.minutes(cell.ref, hour), `${minute % 60}${kind}`, cell[kind]);
      }
    }
    if (cell.ref === TOTAL_REF) {
      const global = scope(GLOBAL_SCOPE);
      global.writes.zincr(global.keys.tenants(hour), cell.tenantId, cell.r, UNBOUNDED);
    } else {
      const tenant = scope(cell.tenantId);
      tenant.writes.zincr(tenant.keys.rules(hour), cell.ref, cell.r + cell.s, UNBOUNDED);
    }
  }

  for (const client of batch.clients.values()) {
    for (const id of scopesOf(client.tenantId)) {
      const { keys, writes } = scope(id);
      const member = clientMember(id, client.tenantId, client.keyId);
      for (const [resolution, index] of periods(client.minute)) {
        writes.zincr(keys.hotKeys(resolution, index), member, client.requests, HOT_KEYS_KEPT);
        if (client.refused > 0) writes.zincr(keys.refusals(resolution, index), member, client.refused, REFUSALS_KEPT);
        for (const [ref, n] of client.refusedByRule)
          writes.zincr(keys.refusals(resolution, index), `${member}/${ref}`, n, REFUSALS_KEPT);
      }
    }
  }

  for (const stats of batch.descriptors.stats.values()) {
    for (const id of scopesOf(stats.tenantId)) {
      const { keys, writes } = scope(id);
      for (const [resolution, index] of periods(stats.minute)) {
        writes.zincr(keys.hotDescriptors(resolution, index), stats.member, stats.requests, HOT_KEYS_KEPT);
        if (stats.refused > 0)
          writes.zincr(keys.descriptorRefusals(resolution, index), stats.member, stats.refused, REFUSALS_KEPT);
      }
    }
  }

  for (const low of batch.lows.values()) {
    const score = Math.round(low.fraction * 1e6) / 1e6;
    for (const id of scopesOf(low.tenantId)) {
      const { keys, writes } = scope(id);
      const member = `${clientMember(id, low.tenantId, low.keyId)}/${low.ref}/${low.capacity}`;
      for (const [resolution, index] of periods(low.minute))
        writes.zlow(keys.lows(resolution, index), member, score, LOWS_KEPT);
    }
  }

  for (const mark of batch.limited.values()) {
    const ids = mark.subject.tenantId === GLOBAL_SCOPE ? [GLOBAL_SCOPE] : [mark.subject.tenantId, GLOBAL_SCOPE];
    for (const id of ids) {
      const { keys, writes } = scope(id);
      writes.zlatest(keys.limited(mark.minute), mark.member, mark.lastMs, LIMITED_KEPT);
      writes.zincr(keys.limitedCounts(mark.minute), mark.member, mark.refused, LIMITED_KEPT);
    }
  }

  for (const cell of batch.upstream.cells.values()) {
    const { keys, writes } = scope(cell.tenantId);
    for (const [field, n] of cell.fields)
      writes.hincr(keys.upstream(Math.floor(cell.minute / 60)), `${cell.minute % 60}:${field}`, n);
  }

  if (batch.usage.size > 0) {
    const { keys, writes } = scope(GLOBAL_SCOPE);
    const key = keys.usage(Math.floor(nowMs / MINUTE_MS));
    for (const cell of batch.usage.cells.values()) {
      writes.hincr(key, usageField(cell, "a"), cell.admitted);
      writes.hincr(key, usageField(cell, "r"), cell.refused);
      writes.hincr(key, usageField(cell, "u"), cell.units);
    }
  }

  for (const recent of batch.recent.keys.values()) {
    const { keys, writes } = scope(recent.tenantId);
    writes.lpush(
      keys.recent(recent.keyId),
      recent.entries.map((entry) => JSON.stringify(entry)),
      RECENT_DECISIONS_KEPT,
    );
  }

  const groups: CommandGroups = new Map();
  for (const [id, { writes }] of scopes) {
    const commands = writes.commands();
    if (commands.length > 0) groups.set(id, commands);
  }
  return groups;
}

function periods(minute: number): [Resolution, number][] {
  return [
    ["minute", minute],
    ["hour", Math.floor(minute / 60)],
  ];
}

/** Trace entries per script call (traceChunks). */
export const TRACE_CHUNK = 500;

/** One call of lua/traceAppend.lua: entries of one tenant's stream, with its bounds and TTL. */
export interface TraceChunk {
  key: string;
  maxLen: number;
  minId: number;
  ttlMs: number;
  values: string[];
}

/**
 * The trace's writes (lib/monitoring/record/requestTrace.ts), apart from the rest of the flush, in
 * chunks of at most `chunk` entries, each written by one call of lua/traceAppend.lua (XADD MAXLEN ~
 * per entry, then XTRIM MINID ~ and PEXPIRE, atomically), one call after the other. Why: one
 * transaction of a busy second's 10,000-20,000 XADDs held Redis (single-threaded) for tens of
 * milliseconds, and every limiter call queued behind it, and building that many commands was as
 * long a synchronous burst in this process; chunks built lazily (a generator) between awaited
 * calls spread both. Of each tenant's entries only the newest `traceMaxLen` are sent (the rest
 * could not survive the trim); none older than TRACE_MAX_AGE_MS before the flush's newest entry of
 * the tenant is kept.
 */
export function* traceChunks(
  trace: TraceBuffer,
  prefix: string,
  traceMaxLen = DEFAULT_TRACE_MAX_REQUESTS,
  chunk = TRACE_CHUNK,
): Generator<TraceChunk> {
  for (const [tenantId, { newestMs, values }] of trace.byTenant) {
    const key = monitoringKeys(prefix, tenantId).trace();
    const minId = Math.max(0, newestMs - TRACE_MAX_AGE_MS);
    for (let at = Math.max(0, values.length - traceMaxLen); at < values.length; at += chunk) {
      yield { key, maxLen: traceMaxLen, minId, ttlMs: RETENTION_MS, values: values.slice(at, at + chunk) };
    }
  }
}
