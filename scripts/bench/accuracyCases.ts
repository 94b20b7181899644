/**
 * Accuracy (`BENCH_ONLY=accuracy`): the seeded trace (accuracy/trace.ts, about 1.2 million
 * requests from 3,308 clients) replayed with explicit time through the real decide.lua, every
 * algorithm on the same requests with the same limit and window. The five rules go into each
 * decision as shadow rules: each then admits or refuses on its own state exactly as if it were
 * the only enforce rule (decide.lua: a shadow rule that would refuse consumes nothing, and with no
 * enforce rule every allowing rule consumes), and one script evaluation serves all five. The model
 * check confirms this equivalence on a slice. Reports sliding_window vs sliding_log differences,
 * worst window-length spans, the boundary burst, and Lua vs model mismatches. Keys live under this
 * run's prefix and are deleted at the end of the part.
 * Then the realistic mix (accuracy/trace.ts REALISTIC_TRACE_SPEC: about 1 % of clients over their
 * limit) is replayed the same way with sliding_window and sliding_log, and compared the same way.
 * Env: BENCH_ACCURACY_SLICE (requests of the model check, default 100,000).
 */
import { ALGORITHM_DEFS } from "../../lib/limiter/algorithms/registry";
import { createLimiter } from "../../lib/limiter/decide";
import { ALGORITHMS, type Algorithm, type LimiterRule } from "../../lib/limiter/types";
import { createRedisClient } from "../../lib/redis/connect";
import { boundaryBurstFactor } from "./accuracy/boundaryProbe";
import { checkAgainstModels } from "./accuracy/modelCheck";
import { replay } from "./accuracy/replay";
import {
  CLIENT_CLASSES,
  DEFAULT_TRACE_SPEC,
  generateTrace,
  REALISTIC_TRACE_SPEC,
  type ClientClass,
  type Trace,
} from "./accuracy/trace";
import { admittedByClass, differences, worstSpan } from "./accuracy/traceAnalysis";
import { deleteByPrefix, type BenchContext } from "./context";
import { round } from "./measure";
import type { Limiter } from "../../lib/limiter/decide";
import type { AccuracyReport, ByClientClass, SlidingWindowVsLog, TraceSummary } from "./types";

const MIN_REQUESTS = 1_000_000;
const TENANT = "accuracy";

function rule(algorithm: Algorithm, ref: string, mode: LimiterRule["mode"]): LimiterRule {
  const { limit, windowMs } = DEFAULT_TRACE_SPEC;
  return {
    name: ref,
    ref,
    scope: "key",
    algorithm,
    limit,
    windowMs,
    burst: limit,
    cost: 1,
    blockMs: 0,
    failMode: "open",
    mode,
  };
}

const pct = (part: number, whole: number): number => (whole > 0 ? round((100 * part) / whole, 5) : 0);
const seconds = (since: number): number => round((performance.now() - since) / 1000, 1);
const mapClasses = <T, U>(record: Record<ClientClass, T>, f: (value: T) => U): ByClientClass<U> =>
  Object.fromEntries(CLIENT_CLASSES.map((c) => [c, f(record[c])])) as ByClientClass<U>;

/** Replays `trace` with `bundle` (shadow rules) through decide; one bit per rule per request, set when it admitted. */
async function replayBits(
  limiter: Limiter,
  trace: Trace,
  bundle: LimiterRule[],
  tenantId: string,
): Promise<Uint8Array> {
  const requests = trace.atMs.length;
  const decisions = new Uint8Array(requests);
  const replayStart = performance.now();
  let reported = 0;
  const progress = (done: number) => {
    if (done - reported < 200_000 && done < requests) return;
    reported = done;
    console.log(`  accuracy: ${done} requests replayed (${seconds(replayStart)} s)`);
  };
  await replay(
    { limiter, tenantId, trace, progress },
    () => bundle,
    (i, decision) => {
      let bits = 0;
      decision.results.forEach((r, k) => {
        if (r.allowed) bits |= 1 << k;
      });
      decisions[i] = bits;
    },
  );
  return decisions;
}

function summary(trace: Trace, requestsByClass: ByClientClass<number>): TraceSummary {
  const spec = trace.spec;
  const clients = mapClasses(
    Object.fromEntries(CLIENT_CLASSES.map((c, i) => [c, trace.clientClass.filter((x) => x === i).length])) as Record<
      ClientClass,
      number
    >,
    (n) => n,
  );
  return {
    seed: spec.seed,
    requests: trace.atMs.length,
    durationMs: spec.durationMs,
    limit: spec.limit,
    windowMs: spec.windowMs,
    clients,
    requestsByClass,
  };
}

function comparison(trace: Trace, decisions: Uint8Array, sw: number, sl: number): SlidingWindowVsLog {
  const diff = differences(trace, decisions, sw, sl);
  const requests = trace.atMs.length;
  const calm = diff.byClass.steady.requests + diff.byClass.bursty.requests;
  return {
    requests,
    differing: diff.differing,
    differingPct: pct(diff.differing, requests),
    byClass: mapClasses(diff.byClass, (c) => ({
      requests: c.requests,
      differing: c.differing,
      differingPct: pct(c.differing, c.requests),
      slidingWindowOnly: c.onlyA,
    })),
    withoutAbusivePct: pct(diff.byClass.steady.differing + diff.byClass.bursty.differing, calm),
  };
}

/** The realistic mix: sliding_window and sliding_log only, compared decision by decision. */
async function realisticMix(limiter: Limiter): Promise<NonNullable<AccuracyReport["realistic"]>> {
  const started = performance.now();
  const trace = generateTrace(REALISTIC_TRACE_SPEC);
  console.log(
    `  accuracy, realistic mix: ${trace.atMs.length} requests from ${trace.clientClass.length} clients (${REALISTIC_TRACE_SPEC.abusive.clients} over their limit)`,
  );
  const bundle = (["sliding_window", "sliding_log"] as const).map((a) =>
    rule(a, `real-${ALGORITHM_DEFS[a].code}`, "shadow"),
  );
  const decisions = await replayBits(limiter, trace, bundle, `${TENANT}-real`);
  const compared = comparison(trace, decisions, 0, 1);
  const span = worstSpan(trace, decisions, 0, trace.spec.windowMs, 3 * trace.spec.limit);
  return {
    trace: summary(
      trace,
      mapClasses(compared.byClass, (c) => c.requests),
    ),
    slidingWindowVsLog: compared,
    worstSpanRatio: round(span.admitted / trace.spec.limit, 3),
    seconds: seconds(started),
  };
}

export async function accuracyCases(ctx: BenchContext): Promise<void> {
  const started = performance.now();
  const slice = Number(process.env.BENCH_ACCURACY_SLICE || 100_000);
  const trace = generateTrace(DEFAULT_TRACE_SPEC);
  const requests = trace.atMs.length;
  if (requests < MIN_REQUESTS)
    throw new Error(`accuracy: the trace has ${requests} requests, fewer than ${MIN_REQUESTS}`);
  const generated = seconds(started);
  const spec = trace.spec;
  console.log(
    `  accuracy: ${requests} requests from ${trace.clientClass.length} clients over ${spec.durationMs / 60_000} min, limit ${spec.limit} per ${spec.windowMs / 1000} s (generated in ${generated} s)`,
  );

  const prefix = `${ctx.prefix}acc:`;
  // A generous command timeout: thousands of decisions are queued on the connection at once.
  const redis = createRedisClient({ url: ctx.url, cluster: false, timeoutMs: 30_000, autoPipelining: false });
  const limiter = createLimiter({ redis, prefix, timeoutMs: 30_000 });
  try {
    await redis.ping();
    const bundle = ALGORITHMS.map((a) => rule(a, ALGORITHM_DEFS[a].code, "shadow"));
    const replayStart = performance.now();
    const decisions = await replayBits(limiter, trace, bundle, TENANT);
    const replayed = seconds(replayStart);
    console.log(`  accuracy: replayed through decide.lua (5 algorithms per decision) in ${replayed} s`);

    const checkStart = performance.now();
    const solo = ALGORITHMS.map((a) => rule(a, `solo-${ALGORITHM_DEFS[a].code}`, "enforce"));
    const modelCheck = await checkAgainstModels(limiter, TENANT, trace, Math.min(slice, requests), solo, {
      rules: bundle,
      decisions,
    });
    const checked = seconds(checkStart);
    console.log(
      `  accuracy: Lua vs models on the first ${modelCheck.requests} requests: ${modelCheck.mismatches} mismatches in ${modelCheck.compared} results (${checked} s)`,
    );

    const sw = ALGORITHMS.indexOf("sliding_window");
    const sl = ALGORITHMS.indexOf("sliding_log");
    const algorithms: AccuracyReport["algorithms"] = [];
    for (const [k, algorithm] of ALGORITHMS.entries()) {
      const span = worstSpan(trace, decisions, k, spec.windowMs, 3 * spec.limit);
      const factor = await boundaryBurstFactor(
        limiter,
        TENANT,
        rule(algorithm, `edge-${ALGORITHM_DEFS[algorithm].code}`, "enforce"),
        spec.startMs + spec.durationMs,
      );
      algorithms.push({
        algorithm,
        worstSpanRatio: round(span.admitted / spec.limit, 3),
        worstSpanClass: span.clientClass,
        worstSpanByClass: mapClasses(span.byClass, (n) => round(n / spec.limit, 3)),
        admittedByClass: admittedByClass(trace, decisions, k),
        boundaryBurstFactor: round(factor, 3),
      });
    }
    const realistic = await realisticMix(limiter);
    const stress = comparison(trace, decisions, sw, sl);
    ctx.accuracy = {
      trace: summary(
        trace,
        mapClasses(stress.byClass, (c) => c.requests),
      ),
      slidingWindowVsLog: stress,
      realistic,
      algorithms,
      modelCheck,
      seconds: { generate: generated, replay: replayed, modelCheck: checked, total: seconds(started) },
    };
    printAccuracy(ctx.accuracy);
  } finally {
    await deleteByPrefix(ctx.admin, prefix);
    await redis.quit();
  }
}

function printAccuracy(a: AccuracyReport): void {
  const d = a.slidingWindowVsLog;
  console.log(
    `  sliding_window vs sliding_log: ${d.differing} of ${d.requests} decisions differ (${d.differingPct} %); without abusive clients ${d.withoutAbusivePct} %`,
  );
  for (const c of CLIENT_CLASSES) {
    const x = d.byClass[c];
    console.log(
      `    ${c.padEnd(8)} ${x.differing} of ${x.requests} (${x.differingPct} %): ${x.slidingWindowOnly} admitted by sliding_window only, ${x.differing - x.slidingWindowOnly} by sliding_log only`,
    );
  }
  for (const r of a.algorithms) {
    console.log(
      `  ${r.algorithm.padEnd(15)} worst span ${r.worstSpanRatio} x limit (${r.worstSpanClass}), boundary burst ${r.boundaryBurstFactor} x, admitted ${CLIENT_CLASSES.map((c) => `${c} ${r.admittedByClass[c]}`).join(", ")}`,
    );
  }
  if (a.realistic) {
    const r = a.realistic.slidingWindowVsLog;
    console.log(
      `  realistic mix: sliding_window vs sliding_log: ${r.differing} of ${r.requests} decisions differ (${r.differingPct} %); worst sliding_window span ${a.realistic.worstSpanRatio} x limit`,
    );
  }
  for (const example of a.modelCheck.examples) console.log(`  MISMATCH ${example}`);
  console.log(`  accuracy part: ${a.seconds.total} s`);
}
