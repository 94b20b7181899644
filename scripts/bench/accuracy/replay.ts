/**
 * Replays a slice of the trace through the real `decide` (lib/limiter/decide.ts) with explicit
 * time. Requests are submitted in trace order, `depth` at a time without waiting for each other:
 * the limiter batches them into script calls (decideBatcher.ts) that go out in submission order on
 * one connection, and decide.lua evaluates a call's requests one after another, so Redis sees them
 * in exactly the trace's order while the round trips overlap. Any answer not from Redis (a fail
 * mode) aborts the replay: an accuracy figure computed from fail-open answers would be meaningless.
 */
import type { Limiter } from "../../../lib/limiter/decide";
import type { Decision, LimiterRule, Subject } from "../../../lib/limiter/types";
import type { Trace } from "./trace";

export interface ReplayOptions {
  limiter: Limiter;
  tenantId: string;
  trace: Trace;
  /** Request index range [from, to). */
  from?: number;
  to?: number;
  /** Requests in flight; default 4096 (64 script calls of 64). */
  depth?: number;
  /** Told how many requests are done after each `depth` of them. */
  progress?: (done: number) => void;
}

export async function replay(
  options: ReplayOptions,
  rulesFor: (i: number) => LimiterRule[],
  onDecision: (i: number, decision: Decision) => void,
): Promise<void> {
  const { limiter, trace } = options;
  const from = options.from ?? 0;
  const to = options.to ?? trace.atMs.length;
  const depth = options.depth ?? 4096;
  const subjects: Subject[] = Array.from(trace.clientClass, (_, c) => ({ tenantId: options.tenantId, keyId: `c${c}` }));
  for (let start = from; start < to; start += depth) {
    const end = Math.min(to, start + depth);
    const pending: Promise<Decision>[] = [];
    for (let i = start; i < end; i++)
      pending.push(limiter.decide(rulesFor(i), subjects[trace.client[i]!]!, { nowMs: trace.atMs[i]! }));
    const decisions = await Promise.all(pending);
    for (let k = 0; k < decisions.length; k++) {
      const decision = decisions[k]!;
      const failed = decision.results.find((r) => r.source !== "redis");
      if (failed) throw new Error(`accuracy replay: request ${start + k} answered by ${failed.source}, not Redis`);
      onDecision(start + k, decision);
    }
    options.progress?.(end - from);
  }
}
