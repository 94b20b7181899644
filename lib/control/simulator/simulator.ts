/**
 * The rule simulator: replays a tenant's recorded requests (lib/monitoring/record/requestTrace.ts) twice
 * through the reference models the Lua limiter mirrors (replayPass.ts), once with the tenant's
 * rules as they are now and once with candidate rules in place of the tenant-level rules (the
 * rules of the tier each request's caller was in, as recorded, and key overrides apply in both,
 * layered as enforcement layers them: lib/policy/compiled/effectiveRules.ts), and answers both side by side
 * (lib/control/simulator/simulationResult.ts).
 *
 * Contract
 * - Cannot hurt live traffic: the replay runs in this process (no limiter call reaches Redis; the
 *   trace is read in chunks of a bounded size), yields to the event loop every few ms, and at most
 *   `maxConcurrent` simulations run at once per instance (MAX_CONCURRENT_SIMULATIONS); one more is
 *   AppError `simulator_busy` (503, Retry-After).
 * - Read-only for live data: it reads the trace and writes nothing.
 * - Range: [fromMs, toMs), clipped to what is recorded (from the oldest kept request; not past
 *   now); a range that ends before anything recorded replays nothing (requests 0, the range as
 *   asked). At most `maxReplay` requests: beyond, the first ones by time and `truncated`, and
 *   `toMs` ends after the last one replayed.
 * - The tenant's access lists as they are now apply to both replays (lib/control/simulator/replayPass.ts):
 *   denied requests are refused without charge, allowed ones pass. Requests the deny list refused
 *   live are not in the trace (lib/dataplane/admission/admit.ts), so they are not replayed.
 * - Concurrency rules (the trace holds no request durations), `header`/`query` rules (it holds no
 *   request headers or query strings) and rules counted by response (chargeOn: it holds no response
 *   statuses) are not simulated: both replays leave them out and the result names them in
 *   `notSimulated`; nothing is made up for them.
 * - The replay starts from empty counters: what clients consumed before `fromMs` is not known, so
 *   the first window of the range may admit more than live enforcement did.
 * - Errors: unknown tenant AppError `not_found` (404); Redis down or too slow to read the trace
 *   AppError `limiter_unavailable` (503); Postgres down as everywhere (503).
 */
import { compileAccessLists } from "../../policy/access/accessMatcher";
import { compileRule, layerRules, type CompiledRule } from "../../policy/compiled/effectiveRules";
import { AppError } from "../../http/errors";
import { LimiterUnavailableError } from "../../limiter/types";
import type { TraceEntry } from "../../monitoring/record/requestTrace";
import type { RedisClient } from "../../redis/connect";
import type { Rule } from "../../policy/rules/ruleSchema";
import { aggregate } from "./aggregate";
import { replayPass } from "./replayPass";
import type { SimulateInput } from "./simulateSchema";
import type { SimulationResult } from "./simulationResult";
import type { SimulationStore, TenantRuleSets } from "./simulationStore";
import { oldestRecorded, readTrace, type TraceReaderDeps } from "./traceReader";

/** Requests one simulation replays at most. */
export const DEFAULT_MAX_REPLAY = 200_000;
/** Longest any one Redis call of a simulation may take (an XRANGE chunk of the trace). */
export const SIMULATION_TIMEOUT_MS = 10_000;
/** Simulations one instance runs at once: each replay is CPU work in this process. */
export const MAX_CONCURRENT_SIMULATIONS = 1;

export interface SimulatorDeps {
  /** A connection of its own: reading a trace must never queue ahead of live decisions. */
  redis: RedisClient;
  prefix: string;
  store: SimulationStore;
  timeoutMs?: number;
  maxReplay?: number;
  maxConcurrent?: number;
  clock?: () => number;
  /** Told of every run, for the cost metrics (sluice_simulation_*): never throws into a run. */
  onRun?: (run: SimulationRun) => void;
}

/** What one simulation cost: its outcome, wall time and the requests it replayed. */
export interface SimulationRun {
  outcome: "completed" | "failed";
  seconds: number;
  requests: number;
}

export interface Simulator {
  simulate(tenantId: string, input: SimulateInput): Promise<SimulationResult>;
}

/** The candidate's refs: a rule name keeps its counter ref; a new name gets one no stored ref can be (refs are base36). */
function compileCandidate(rules: Rule[], refs: Map<string, string>): CompiledRule[] {
  return rules.map((rule, i) => compileRule(rule, refs.get(rule.name) ?? `s-${i}`, false));
}

/** Memoised per key and tier: a caller's layered rule set (tenant, tier, key), as enforcement builds it. */
function ruleSetsOf(
  tenantRules: CompiledRule[],
  sets: TenantRuleSets,
): (keyId: string | null, tier?: string) => CompiledRule[] {
  const merged = new Map<string, CompiledRule[]>();
  return (keyId, tier) => {
    if (keyId === null && tier === undefined) return tenantRules;
    const id = `${keyId ?? ""} ${tier ?? ""}`;
    let rules = merged.get(id);
    if (!rules) {
      const tierRules = tier !== undefined ? sets.tiers?.get(tier) : undefined;
      const keyRules = keyId !== null ? sets.overrides.get(keyId) : undefined;
      merged.set(id, (rules = layerRules(tenantRules, tierRules, keyRules)));
    }
    return rules;
  };
}

const NOT_SIMULATED_REASON =
  "concurrency rule: the trace does not record how long requests took, so slots in flight cannot be replayed";
const NOT_SIMULATED_ATTRIBUTE =
  "header or query rule: the trace does not record request headers or query strings, so the values it counts by are unknown";
const NOT_SIMULATED_STATUS =
  "counted by response (chargeOn): the trace does not record response statuses, so its charges cannot be replayed";

/** The concurrency, header/query and count-by-response rules among `rules`, once per name. */
function notSimulated(
  rules: readonly Pick<Rule, "name" | "algorithm" | "scope" | "chargeOn">[],
): SimulationResult["notSimulated"] {
  const out = new Map<string, string>();
  for (const rule of rules) {
    if (rule.algorithm === "concurrency") out.set(rule.name, NOT_SIMULATED_REASON);
    else if (rule.scope === "header" || rule.scope === "query") out.set(rule.name, NOT_SIMULATED_ATTRIBUTE);
    else if (rule.chargeOn) out.set(rule.name, NOT_SIMULATED_STATUS);
  }
  return [...out].map(([rule, reason]) => ({ rule, reason }));
}

const busy = () =>
  new AppError("simulator_busy", "Another simulation is running on this instance. Retry in a few seconds.", {
    headers: { "Retry-After": "5" },
  });

const unavailable = () =>
  new AppError(
    "limiter_unavailable",
    "The simulation cannot run right now: Redis is unavailable or too slow. Retry shortly.",
    { headers: { "Retry-After": "1" } },
  );

export function createSimulator(deps: SimulatorDeps): Simulator {
  const timeoutMs = deps.timeoutMs ?? SIMULATION_TIMEOUT_MS;
  const maxReplay = deps.maxReplay ?? DEFAULT_MAX_REPLAY;
  const clock = deps.clock ?? Date.now;
  const reader: TraceReaderDeps = { redis: deps.redis, prefix: deps.prefix, timeoutMs };

  async function replayBoth(tenantId: string, entries: TraceEntry[], candidateRules: Rule[]) {
    const keyIds = [...new Set(entries.flatMap((e) => (e.keyId === null ? [] : [e.keyId])))];
    const tiers = [...new Set(entries.flatMap((e) => (e.tier === undefined ? [] : [e.tier])))];
    const [sets, lists] = await Promise.all([
      deps.store.ruleSets(tenantId, keyIds, tiers),
      deps.store.accessLists?.(tenantId),
    ]);
    const accessLists = lists ? compileAccessLists(lists) : undefined;
    const current = await replayPass(entries, { tenantId, rulesOf: ruleSetsOf(sets.tenant, sets), accessLists });
    const candidate = await replayPass(entries, {
      tenantId,
      rulesOf: ruleSetsOf(compileCandidate(candidateRules, sets.refs), sets),
      accessLists,
    });
    return [current, candidate, sets.tenant.map((r) => r.rule)] as const;
  }

  async function simulate(tenantId: string, input: SimulateInput): Promise<SimulationResult> {
    await deps.store.assertTenant(tenantId);
    const recordedFromMs = await oldestRecorded(reader, tenantId);
    let fromMs = input.fromMs;
    let toMs = input.toMs;
    let entries: TraceEntry[] = [];
    let truncated = false;
    if (recordedFromMs !== null && toMs > recordedFromMs) {
      fromMs = Math.max(fromMs, recordedFromMs);
      const now = clock();
      if (toMs > now && now > fromMs) toMs = now;
      ({ entries, truncated } = await readTrace(reader, tenantId, { fromMs, toMs }, maxReplay));
      if (truncated) toMs = entries[entries.length - 1]!.atMs + 1;
    }
    const [current, candidate, currentRules] =
      entries.length === 0
        ? [new Uint8Array(0), new Uint8Array(0), []]
        : await replayBoth(tenantId, entries, input.rules);
    const figures = aggregate({ fromMs, toMs }, entries, current, candidate);
    const names = await deps.store.keyNames(figures.newlyRefused.flatMap((c) => (c.keyId === null ? [] : [c.keyId])));
    for (const client of figures.newlyRefused)
      client.keyName = client.keyId === null ? null : (names.get(client.keyId) ?? null);
    return {
      tenantId,
      fromMs,
      toMs,
      recordedFromMs,
      requests: entries.length,
      truncated,
      notSimulated: notSimulated([...currentRules, ...input.rules]),
      ...figures,
    };
  }

  const maxConcurrent = deps.maxConcurrent ?? MAX_CONCURRENT_SIMULATIONS;
  let running = 0;

  return {
    async simulate(tenantId, input) {
      if (running >= maxConcurrent) throw busy();
      running++;
      const started = performance.now();
      const told = (outcome: SimulationRun["outcome"], requests: number) =>
        deps.onRun?.({ outcome, seconds: (performance.now() - started) / 1000, requests });
      try {
        const result = await simulate(tenantId, input);
        told("completed", result.requests);
        return result;
      } catch (error) {
        told("failed", 0);
        if (error instanceof LimiterUnavailableError) throw unavailable();
        throw error;
      } finally {
        running--;
      }
    },
  };
}
