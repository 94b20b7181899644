/**
 * (k) Metering at scale (issue 33 "Speed and scale", usageCases.ts): the usage API answers a 31-day
 * query for one key in under 100 ms and a tenant-wide 31-day query (by day and key) in under 1 s,
 * p50, on a month of 1,000,000 active keys (BENCH_USAGE_KEYS: the row's note says how many were run).
 */
import { atMost } from "./goalShapes";
import type { Goal, RunRow } from "./types";

export function usageGoals(rows: RunRow[]): Goal[] {
  const row = (name: string) => rows.find((r) => r.subject === "usage-query" && r.case === name);
  const keys = (r: RunRow) => /over (\d+) keys/.exec(r.note ?? "")?.[1] ?? "?";
  const goals: Goal[] = [];
  const one = row("31d-one-key");
  if (one) goals.push(atMost(`usage API: 31-day query for one key, p50 ms (${keys(one)} keys)`, one.p50Ms, 100));
  const all = row("31d-tenant-wide");
  if (all)
    goals.push(atMost(`usage API: 31-day tenant-wide query by key, p50 ms (${keys(all)} keys)`, all.p50Ms, 1000));
  return goals;
}
