/**
 * The algorithm registry: one entry per algorithm, typed `Record<Algorithm, AlgorithmDef>` so a
 * missing algorithm is a compile error. `code` is what the Lua dispatcher uses. What each algorithm
 * trades off is told once, in components/rules/algorithmGuide.ts (the dashboard's picker and guide).
 */
import type { Algorithm } from "../types";
import type { AlgorithmModel } from "./model";
import { concurrency } from "./concurrency";
import { fixedWindow } from "./fixedWindow";
import { gcra } from "./gcra";
import { slidingLog } from "./slidingLog";
import { slidingWindow } from "./slidingWindow";
import { tokenBucket } from "./tokenBucket";

export interface AlgorithmDef {
  code: "fw" | "sw" | "sl" | "tb" | "gc" | "cc";
  // The state type differs per algorithm; callers treat it as opaque.
  model: AlgorithmModel<unknown>;
}

export const ALGORITHM_DEFS: Record<Algorithm, AlgorithmDef> = {
  fixed_window: {
    code: "fw",
    model: fixedWindow as AlgorithmModel<unknown>,
  },
  sliding_window: {
    code: "sw",
    model: slidingWindow as AlgorithmModel<unknown>,
  },
  sliding_log: {
    code: "sl",
    model: slidingLog as AlgorithmModel<unknown>,
  },
  token_bucket: {
    code: "tb",
    model: tokenBucket as AlgorithmModel<unknown>,
  },
  gcra: {
    code: "gc",
    model: gcra as AlgorithmModel<unknown>,
  },
  concurrency: {
    code: "cc",
    model: concurrency as AlgorithmModel<unknown>,
  },
};
