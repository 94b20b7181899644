/**
 * The decisions of one flush interval, aggregated in memory (the request path's only cost of
 * monitoring: a few Map updates, no I/O). lib/monitoring/record/flushCommands.ts turns a batch into writes.
 *
 * What one decision adds, at the second it was recorded:
 * - a request under /api/v1 (`addRequest`), to the tenant's `*` cell: `a` if admitted, `r` if
 *   refused (429, or 503 under a `closed` rule), and also `s` if admitted while a shadow rule would
 *   have refused it (the extra refusals enforcing the shadow rules would cause; a request already
 *   refused by an enforce rule is not counted again). A request no rule matched (`decision` null) is
 *   admitted traffic too;
 * - per rule result, to that rule's cell: `a` if the rule passed it, `r` if an enforce rule
 *   refused, `s` if a shadow rule would have refused. So `r` and `s` are never mixed: the traffic
 *   and refusal-rate series show real refusals and would-be refusals apart;
 * - of its caller (lib/monitoring/record/callerMember.ts: an API key, a JWT subject, an anonymous
 *   address on a tenant host): the caller's requests and refusals in that minute (refusals also per
 *   refusing rule), for the hot-callers table;
 * - with a key id: per enforce rule the lowest remaining/capacity the key saw (capacity: `burst` for token_bucket
 *   and gcra, else `limit`; 0 when the rule refused it), and the request as a recent decision of the
 *   key (lib/monitoring/record/recentDecisions.ts). Fail-open/closed results carry no real quota and are
 *   skipped for the low marks;
 * - with a key id, in a real tenant: the request to the tenant's trace for the rule simulator
 *   (lib/monitoring/record/requestTrace.ts);
 * - a decision of POST /api/v1/check (`addCheck`) adds its rule cells only: the request itself
 *   was already recorded by `addRequest`; so does a ShouldRateLimit call of Envoy's rate limit
 *   service (lib/dataplane/envoy), with its descriptor subjects as `attributes`, and with them
 *   each descriptor rule's subject (the values it counts by, up to 256 characters) with its calls
 *   and the calls that rule refused, for the hot-descriptors table;
 * - from both: per enforce rule that refused, the subject it counts (key, tenant, ip or
 *   identifier; lib/monitoring/record/limitedSubjects.ts) with its refusals and latest refusal time in that
 *   minute, for "Limited right now".
 *
 * Bounded: past `limits` new cells, clients, lows, recent or trace entries are not kept and are counted in
 * `overflow` (existing entries still count). Ids and refs that could not be part of a key are
 * skipped the same way.
 */
import { capacityOf, type Decision, type RuleResult } from "../../limiter/types";
import { isPseudoTenant, minuteOf, RECENT_DECISIONS_KEPT, SAFE_PART, TOTAL_REF } from "./monitoringKeys";
import { callerOf } from "./callerMember";
import { HotDescriptorTally } from "./hotDescriptorTally";
import { limitedMember, refusedSubjects, type LimitedSubject } from "./limitedSubjects";
import { recentDecision, RecentBuffer, type AnswerBox } from "./recentDecisions";
import { UpstreamOutcomes } from "./upstreamOutcomes";
import { TraceBuffer, traceEntry } from "./requestTrace";
import { UsageTally } from "./usageTally";

/** One request under /api/v1 as the enforcement path reports it. */
export interface RecordedRequest {
  tenantId: string;
  /** undefined when the request had no valid API key. */
  keyId?: string;
  /** The tier the caller was in (lib/policy/tiers), for the simulator's replay (request trace only). */
  tier?: string;
  /** null when no rule matched (admitted without a decision). */
  decision: Decision | null;
  method: string;
  /** The path without the query string (cut to MAX_PATH_CHARS when stored). */
  path: string;
  /** The client IP (lib/http/clientIp.ts), kept in the request trace. */
  ip?: string;
  /** Values of the header/query attributes its rules charged (Subject.attributes), for "Limited right now". */
  attributes?: Readonly<Record<string, string>>;
  /** Filled with the answer's status once sent: the key's recent decision shows it (recentDecisions.ts). */
  answered?: AnswerBox;
}

export interface SeriesCell {
  tenantId: string;
  ref: string;
  /** Epoch second. */
  second: number;
  a: number;
  r: number;
  s: number;
}

export interface ClientStats {
  tenantId: string;
  keyId: string;
  minute: number;
  requests: number;
  refused: number;
  refusedByRule: Map<string, number>;
}

export interface LowMark {
  tenantId: string;
  keyId: string;
  ref: string;
  capacity: number;
  minute: number;
  fraction: number;
}

/** A subject some rule refused in one minute: how often, and when last. */
export interface LimitedMark {
  subject: LimitedSubject;
  member: string;
  minute: number;
  refused: number;
  lastMs: number;
}

export interface BatchLimits {
  maxCells: number;
  maxClients: number;
  maxLows: number;
  /** Recent-decision entries (each at most ~400 bytes of JSON). */
  maxRecent: number;
  /** Request-trace entries for the simulator (each at most ~300 bytes). */
  maxTrace: number;
  /** Refused subjects per minute (each member at most ~330 bytes). */
  maxLimited?: number;
  /** Metering cells (usageTally.ts): tenant, hour, caller, rule and tier. */
  maxUsage?: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = {
  maxCells: 20_000,
  maxClients: 20_000,
  maxLows: 20_000,
  maxRecent: 20_000,
  maxTrace: 20_000,
  maxLimited: 20_000,
  maxUsage: 20_000,
};

const QUOTA_SOURCES = new Set<RuleResult["source"]>(["redis", "cache", "fail_local"]);

export class DecisionBatch {
  readonly cells = new Map<string, SeriesCell>();
  readonly clients = new Map<string, ClientStats>();
  readonly lows = new Map<string, LowMark>();
  readonly limited = new Map<string, LimitedMark>();
  readonly descriptors: HotDescriptorTally;
  readonly recent: RecentBuffer;
  readonly trace: TraceBuffer;
  readonly upstream: UpstreamOutcomes;
  /** Metering cells for the usage roll-up (usageTally.ts). */
  readonly usage: UsageTally;
  overflow = 0;

  constructor(private readonly limits: BatchLimits = DEFAULT_BATCH_LIMITS) {
    this.recent = new RecentBuffer(RECENT_DECISIONS_KEPT, limits.maxRecent);
    this.trace = new TraceBuffer(limits.maxTrace);
    this.descriptors = new HotDescriptorTally(limits.maxClients);
    this.upstream = new UpstreamOutcomes(limits.maxCells);
    this.usage = new UsageTally(limits.maxUsage ?? DEFAULT_BATCH_LIMITS.maxUsage!);
  }

  get size(): number {
    return (
      this.cells.size +
      this.clients.size +
      this.lows.size +
      this.recent.size +
      this.trace.size +
      this.limited.size +
      this.descriptors.size +
      this.upstream.size +
      this.usage.size
    );
  }

  /** A gateway answer of the tenant's upstream (upstreamOutcomes.ts). */
  addUpstream(tenantId: string, status: number, latencyMs: number, nowMs: number): void {
    if (!SAFE_PART.test(tenantId) || !this.upstream.add(tenantId, status, latencyMs, nowMs)) this.overflow++;
  }

  addRequest(request: RecordedRequest, nowMs: number): void {
    const { tenantId, keyId, decision } = request;
    if (!SAFE_PART.test(tenantId)) {
      this.overflow++;
      return;
    }
    const caller = callerOf(tenantId, keyId, request.ip);
    // An id that fits no caller member: the request still counts in the series, not as a caller.
    if (keyId !== undefined && caller === null) this.overflow++;
    const second = Math.floor(nowMs / 1000);
    const admitted = decision === null || decision.allowed;
    const total = this.cell(tenantId, TOTAL_REF, second);
    if (total) {
      if (admitted) total.a++;
      else total.r++;
      if (admitted && decision?.results.some((r) => r.rule.mode === "shadow" && !r.allowed)) total.s++;
    }
    if (decision) this.addResults(tenantId, decision, second);
    if (
      !isPseudoTenant(tenantId) &&
      !this.usage.addRequest(tenantId, caller?.member ?? "", request.tier, decision, nowMs)
    )
      this.overflow++;
    if (decision && !decision.allowed)
      this.addLimited(
        refusedSubjects(tenantId, decision, { keyId, ip: request.ip, attributes: request.attributes }),
        nowMs,
      );
    if (caller === null) return;
    const client = this.client(tenantId, caller.member, minuteOf(nowMs));
    if (client) {
      client.requests++;
      if (!admitted) client.refused++;
      for (const r of decision?.results ?? []) {
        if (r.rule.mode === "enforce" && !r.allowed)
          client.refusedByRule.set(r.rule.ref, (client.refusedByRule.get(r.rule.ref) ?? 0) + 1);
      }
    }
    // Near-limit marks, recent decisions and the simulator's trace are an API key's (its page shows them).
    if (caller.kind !== "key" || keyId === undefined) return;
    if (!isPseudoTenant(tenantId) && !this.trace.add(traceEntry(request, decision, nowMs))) this.overflow++;
    for (const r of decision?.results ?? []) {
      if (r.rule.mode === "enforce" && QUOTA_SOURCES.has(r.source)) this.low(tenantId, keyId, r, minuteOf(nowMs));
    }
    if (
      !this.recent.add(tenantId, keyId, recentDecision(decision, request.method, request.path, nowMs, request.answered))
    )
      this.overflow++;
  }

  /** `identifier`: the one the check charged (its refusals go to "Limited right now"). */
  addCheck(
    tenantId: string,
    decision: Decision,
    nowMs: number,
    identifier?: string,
    attributes?: Readonly<Record<string, string>>,
  ): void {
    if (!SAFE_PART.test(tenantId)) {
      this.overflow++;
      return;
    }
    this.addResults(tenantId, decision, Math.floor(nowMs / 1000));
    if (!isPseudoTenant(tenantId) && !this.usage.addCheck(tenantId, decision, nowMs)) this.overflow++;
    this.addLimited(refusedSubjects(tenantId, decision, { identifier, attributes }), nowMs);
    if (attributes) this.overflow += this.descriptors.add(tenantId, decision, attributes, minuteOf(nowMs));
  }

  private addLimited(subjects: LimitedSubject[], nowMs: number): void {
    const minute = minuteOf(nowMs);
    for (const subject of subjects) {
      if (!SAFE_PART.test(subject.ref)) continue;
      const member = limitedMember(subject);
      const id = `${minute}\n${member}`;
      const known = this.limited.get(id);
      if (known) {
        known.refused++;
        known.lastMs = Math.max(known.lastMs, nowMs);
      } else if (this.limited.size >= (this.limits.maxLimited ?? DEFAULT_BATCH_LIMITS.maxLimited!)) this.full();
      else this.limited.set(id, { subject, member, minute, refused: 1, lastMs: nowMs });
    }
  }

  private addResults(tenantId: string, decision: Decision, second: number): void {
    for (const r of decision.results) {
      if (!SAFE_PART.test(r.rule.ref)) {
        this.overflow++;
        continue;
      }
      const cell = this.cell(tenantId, r.rule.ref, second);
      if (!cell) continue;
      if (r.allowed) cell.a++;
      else if (r.rule.mode === "shadow") cell.s++;
      else cell.r++;
    }
  }

  /** Counts an observation that a bound kept out; returns nothing to store it in. */
  private full(): undefined {
    this.overflow++;
    return undefined;
  }

  private cell(tenantId: string, ref: string, second: number): SeriesCell | undefined {
    const id = `${tenantId}\n${ref}\n${second}`;
    let cell = this.cells.get(id);
    if (!cell) {
      if (this.cells.size >= this.limits.maxCells) return this.full();
      cell = { tenantId, ref, second, a: 0, r: 0, s: 0 };
      this.cells.set(id, cell);
    }
    return cell;
  }

  private client(tenantId: string, keyId: string, minute: number): ClientStats | undefined {
    const id = `${tenantId}\n${keyId}\n${minute}`;
    let client = this.clients.get(id);
    if (!client) {
      if (this.clients.size >= this.limits.maxClients) return this.full();
      client = { tenantId, keyId, minute, requests: 0, refused: 0, refusedByRule: new Map() };
      this.clients.set(id, client);
    }
    return client;
  }

  private low(tenantId: string, keyId: string, result: RuleResult, minute: number): void {
    const capacity = capacityOf(result.rule);
    if (!(capacity > 0)) return;
    // A rule that refused the key has it at its limit, whatever units a costly request left over.
    const fraction = result.allowed ? Math.min(1, Math.max(0, result.remaining / capacity)) : 0;
    const id = `${tenantId}\n${keyId}\n${result.rule.ref}\n${capacity}\n${minute}`;
    const known = this.lows.get(id);
    if (known) {
      known.fraction = Math.min(known.fraction, fraction);
      return;
    }
    if (this.lows.size >= this.limits.maxLows) {
      this.full();
      return;
    }
    this.lows.set(id, { tenantId, keyId, ref: result.rule.ref, capacity, minute, fraction });
  }
}
