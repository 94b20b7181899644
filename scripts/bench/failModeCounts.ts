/**
 * Fail-mode activations of a running server, from its `GET /api/metrics`
 * (`sluice_fail_mode_activations_total{mode}`: one per rule answered by its failMode because Redis
 * did not answer in time or failed). Under load on a healthy Redis this should stay 0: an
 * activation there means the decision deadline ran out in this process, not in Redis (issue 15,
 * point 14). The bench reads it before and after a measured phase and reports the difference.
 */
import type { SluiceServer } from "../../test/support/sluiceServer";

/** The token the bench servers get for /api/metrics (SLUICE_METRICS_TOKEN, where supported). */
export const BENCH_METRICS_TOKEN = "bench-metrics-token-0123456789abcdef0123";

export type FailModeCounts = Record<"open" | "closed" | "local", number> & {
  total: number;
  /** Why Redis could not answer (`sluice_redis_errors_total{kind}`): timeout, timeout_after_lag, down, error. */
  redisErrors: Record<string, number>;
};

export function parseFailModeCounts(text: string): FailModeCounts {
  const counts: FailModeCounts = { open: 0, closed: 0, local: 0, total: 0, redisErrors: {} };
  for (const line of text.split("\n")) {
    const errors = /^sluice_redis_errors_total\{kind="(\w+)"\} (\S+)$/.exec(line.trim());
    if (errors) counts.redisErrors[errors[1]!] = (counts.redisErrors[errors[1]!] ?? 0) + Number(errors[2]);
    const match = /^sluice_fail_mode_activations_total\{mode="(open|closed|local)"\} (\S+)$/.exec(line.trim());
    if (!match) continue;
    const value = Number(match[2]);
    counts[match[1] as "open" | "closed" | "local"] += value;
    counts.total += value;
  }
  return counts;
}

export async function failModeCounts(server: SluiceServer): Promise<FailModeCounts> {
  const response = await fetch(`${server.url}/api/metrics`, {
    headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` },
  });
  if (!response.ok) throw new Error(`bench: GET /api/metrics answered ${response.status}`);
  return parseFailModeCounts(await response.text());
}

export function difference(after: FailModeCounts, before: FailModeCounts): FailModeCounts {
  const redisErrors: Record<string, number> = {};
  for (const [kind, n] of Object.entries(after.redisErrors)) {
    const d = n - (before.redisErrors[kind] ?? 0);
    if (d) redisErrors[kind] = d;
  }
  return {
    open: after.open - before.open,
    closed: after.closed - before.closed,
    local: after.local - before.local,
    total: after.total - before.total,
    redisErrors,
  };
}

export function sum(counts: FailModeCounts[]): FailModeCounts {
  const total: FailModeCounts = { open: 0, closed: 0, local: 0, total: 0, redisErrors: {} };
  for (const c of counts) {
    total.open += c.open;
    total.closed += c.closed;
    total.local += c.local;
    total.total += c.total;
    for (const [kind, n] of Object.entries(c.redisErrors)) total.redisErrors[kind] = (total.redisErrors[kind] ?? 0) + n;
  }
  return total;
}

export function describeCounts(c: FailModeCounts): string {
  const kinds = Object.entries(c.redisErrors).map(([kind, n]) => `${kind} ${n}`);
  return `${c.total} (open ${c.open}, closed ${c.closed}, local ${c.local}${kinds.length ? `; Redis calls failed: ${kinds.join(", ")}` : ""})`;
}
