/**
 * The Lua against the pure TypeScript reference models (lib/limiter/algorithms/*) on the first
 * requests of the trace:
 * - each algorithm alone as an enforce rule through `decide`, every field of every result
 *   (allowed, remaining, resetMs, retryAfterMs, nextMs) against `modelDecide`;
 * - the replay's own decisions (all five algorithms as shadow rules in one decision) against the
 *   models' verdicts, which shows that bundling them changes nothing.
 * Counts mismatches (expected 0) and describes the first few.
 */
import { modelDecide } from "../../../lib/limiter/algorithms/modelDecide";
import type { Limiter } from "../../../lib/limiter/decide";
import type { LimiterRule } from "../../../lib/limiter/types";
import { replay } from "./replay";
import type { Trace } from "./trace";

export interface ModelCheckResult {
  requests: number;
  /** Rule results compared (single-rule runs and the bundle). */
  compared: number;
  mismatches: number;
  examples: string[];
}

const FIELDS = ["allowed", "remaining", "resetMs", "retryAfterMs", "nextMs"] as const;

function clientStates(trace: Trace): Map<string, unknown>[] {
  return Array.from(trace.clientClass, () => new Map<string, unknown>());
}

export async function checkAgainstModels(
  limiter: Limiter,
  tenantId: string,
  trace: Trace,
  slice: number,
  singleRules: readonly LimiterRule[],
  bundle: { rules: readonly LimiterRule[]; decisions: Uint8Array },
): Promise<ModelCheckResult> {
  const result: ModelCheckResult = { requests: slice, compared: 0, mismatches: 0, examples: [] };
  const mismatch = (text: string) => {
    result.mismatches++;
    if (result.examples.length < 5) result.examples.push(text);
  };
  for (const rule of singleRules) {
    const states = clientStates(trace);
    await replay(
      { limiter, tenantId, trace, to: slice },
      () => [rule],
      (i, decision) => {
        const expected = modelDecide(states[trace.client[i]!]!, [rule], trace.atMs[i]!)[0]!;
        const actual = decision.results[0]!;
        result.compared++;
        const differing = FIELDS.filter((f) => actual[f] !== expected[f]);
        if (differing.length > 0)
          mismatch(
            `${rule.algorithm} request ${i}: ${differing.map((f) => `${f} lua ${actual[f]} model ${expected[f]}`).join(", ")}`,
          );
      },
    );
  }
  const states = clientStates(trace);
  for (let i = 0; i < slice; i++) {
    const expected = modelDecide(states[trace.client[i]!]!, bundle.rules, trace.atMs[i]!);
    expected.forEach((e, k) => {
      result.compared++;
      if (((bundle.decisions[i]! >> k) & 1) !== (e.allowed ? 1 : 0))
        mismatch(`bundle ${bundle.rules[k]!.algorithm} request ${i}: lua ${!e.allowed} model ${e.allowed}`);
    });
  }
  return result;
}
