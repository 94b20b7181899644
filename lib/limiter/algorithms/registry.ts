/**
 * The algorithm registry: one entry per algorithm, typed `Record<Algorithm, AlgorithmDef>` so a
 * missing algorithm is a compile error. `code` is what the Lua dispatcher and Redis keys use;
 * `tradeOff` is shown in the dashboard's algorithm picker.
 */
import type { Algorithm } from "../types";
import type { AlgorithmModel } from "./model";
import { fixedWindow } from "./fixedWindow";
import { gcra } from "./gcra";
import { slidingLog } from "./slidingLog";
import { slidingWindow } from "./slidingWindow";
import { tokenBucket } from "./tokenBucket";

export interface AlgorithmDef {
  code: "fw" | "sw" | "sl" | "tb" | "gc";
  label: string;
  tradeOff: string;
  /** Whether `burst` means anything to it (the form shows the field only then). */
  usesBurst: boolean;
  // The state type differs per algorithm; callers treat it as opaque.
  model: AlgorithmModel<unknown>;
}

export const ALGORITHM_DEFS: Record<Algorithm, AlgorithmDef> = {
  fixed_window: {
    code: "fw",
    label: "Fixed window",
    tradeOff:
      "Cheapest and easiest to explain: a counter per epoch-aligned window. A client can send up to twice the limit across a window boundary.",
    usesBurst: false,
    model: fixedWindow as AlgorithmModel<unknown>,
  },
  sliding_window: {
    code: "sw",
    label: "Sliding window (counter)",
    tradeOff:
      "Two counters weighted by time smooth out the boundary burst at the cost of one small key. An estimate: assumes the previous window's requests were evenly spread, so a burst at the end of one window can let nearly twice the limit through within one window length.",
    usesBurst: false,
    model: slidingWindow as AlgorithmModel<unknown>,
  },
  sliding_log: {
    code: "sl",
    label: "Sliding log (exact)",
    tradeOff:
      "Exact: never more than the limit in any window-length span. Memory and CPU grow with the requests inside one window, so its limit is capped at 10,000 (use sliding_window above that).",
    usesBurst: false,
    model: slidingLog as AlgorithmModel<unknown>,
  },
  token_bucket: {
    code: "tb",
    label: "Token bucket",
    tradeOff:
      "Allows bursts up to `burst`, then a steady refill of `limit` per window. Good for APIs whose clients are naturally bursty.",
    usesBurst: true,
    model: tokenBucket as AlgorithmModel<unknown>,
  },
  gcra: {
    code: "gc",
    label: "GCRA",
    tradeOff:
      "Paces requests at one every window/limit, with a burst tolerance of `burst`. It decides exactly like a token bucket with the same numbers (both store one time per client); pick the description your team reasons about best.",
    usesBurst: true,
    model: gcra as AlgorithmModel<unknown>,
  },
};
