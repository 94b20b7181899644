/**
 * Prometheus metrics of this process (prom-client), served by GET /api/metrics.
 *
 * Labels stay bounded: outcomes and fail modes are fixed sets, and `rule` is a rule NAME (at most
 * 100 per owner, chosen by operators), never a key, tenant id or client address.
 * One registry per process, kept on globalThis: Next bundles each route separately, and every
 * bundle must count into the same registry.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

function create() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "sluice_process_" });
  return {
    registry,
    decisions: new Counter({
      name: "sluice_decisions_total",
      help: "Requests decided under /api/v1, by outcome.",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    ruleResults: new Counter({
      name: "sluice_rule_results_total",
      help: "Per-rule verdicts: allowed, refused (enforce) or would_refuse (shadow).",
      labelNames: ["rule", "result"] as const,
      registers: [registry],
    }),
    decideSeconds: new Histogram({
      name: "sluice_decide_duration_seconds",
      help: "Time spent in the limiter's decide call (Redis round trip included).",
      buckets: [0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
      registers: [registry],
    }),
    redisErrors: new Counter({
      name: "sluice_redis_errors_total",
      help: "Limiter calls that Redis failed or did not answer in time.",
      registers: [registry],
    }),
    failModeActivations: new Counter({
      name: "sluice_fail_mode_activations_total",
      help: "Rules answered by their failMode instead of Redis, by fail mode.",
      labelNames: ["mode"] as const,
      registers: [registry],
    }),
    monitoringFlushes: new Counter({
      name: "sluice_monitoring_flushes_total",
      help: "Writes of the recorded decisions to Redis (about one per second), by outcome: written, or failed (that second's data dropped).",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    monitoringOverflow: new Counter({
      name: "sluice_monitoring_overflow_total",
      help: "Observations the monitoring recorder could not keep because a per-flush bound was reached.",
      registers: [registry],
    }),
    cacheReloads: new Counter({
      name: "sluice_cache_reloads_total",
      help: "Reloads of this instance's copy of keys and rules, by kind and outcome.",
      labelNames: ["kind", "outcome"] as const,
      registers: [registry],
    }),
  };
}

export type SluiceMetrics = ReturnType<typeof create>;

const globalForMetrics = globalThis as unknown as { sluiceMetrics?: SluiceMetrics };

export function metrics(): SluiceMetrics {
  globalForMetrics.sluiceMetrics ??= create();
  return globalForMetrics.sluiceMetrics;
}
