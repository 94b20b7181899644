/**
 * Prometheus metrics of this process (prom-client), served by GET /api/metrics.
 *
 * Labels stay bounded: outcomes and fail modes are fixed sets, and `rule` is a rule NAME (at most
 * 100 per owner, chosen by operators), never a key, tenant id or client address.
 * One registry per thread, kept on globalThis: Next bundles each route separately, and every
 * bundle must count into the same registry. Under `npm start` the control plane's worker thread has
 * its own, which GET /api/metrics adds to the data plane's (lib/runtime/planeLink.ts).
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { isControlPlaneWorker } from "../../config/plane";

function create() {
  const registry = new Registry();
  // The process's own figures (CPU, RSS, the event loop's lag, heap) once per process: from the main
  // thread, where the data plane runs. The control plane's worker (lib/config/plane.ts) shares the
  // process, and /api/metrics adds its counters to the main thread's (lib/runtime/planeLink.ts).
  if (!isControlPlaneWorker()) collectDefaultMetrics({ register: registry, prefix: "sluice_process_" });
  /** Where the usage gauge reads from: set by the data plane's services (lib/runtime/dataPlaneServices.ts). */
  const subjectBudgetSource: { read: () => { rule: string; scope: string; ratio: number }[] } = { read: () => [] };
  return {
    registry,
    subjectBudgetSource,
    subjectBudgetFolds: new Counter({
      name: "sluice_subject_budget_folds_total",
      help: "Requests a header, query or identifier rule counted on a shared overflow counter because the tenant's rule already holds SLUICE_SUBJECT_BUDGET distinct values on this instance, by rule and scope. Those clients share limits; Redis stays bounded.",
      labelNames: ["rule", "scope"] as const,
      registers: [registry],
    }),
    subjectBudgetUsage: new Gauge({
      name: "sluice_subject_budget_usage_ratio",
      help: "Share of SLUICE_SUBJECT_BUDGET that the fullest tenant's header, query or identifier rule of this name holds on this instance (1: new values are folded into overflow counters), by rule and scope.",
      labelNames: ["rule", "scope"] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const { rule, scope, ratio } of subjectBudgetSource.read()) this.set({ rule, scope }, ratio);
      },
    }),
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
    envoyCalls: new Counter({
      name: "sluice_envoy_calls_total",
      help: "ShouldRateLimit calls of Envoy's rate limit service (gRPC), by outcome: ok, over_limit, unknown_domain (OK, no limits), invalid (INVALID_ARGUMENT), unavailable (UNAVAILABLE), error (INTERNAL). Their rules' verdicts count in sluice_rule_results_total.",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    accessListVerdicts: new Counter({
      name: "sluice_access_list_verdicts_total",
      help: "Requests under /api/v1 decided by a tenant's access list before any rule, by verdict: deny (403, nothing charged) or allow (passed every rule, nothing charged).",
      labelNames: ["verdict"] as const,
      registers: [registry],
    }),
    penaltyRefusals: new Counter({
      name: "sluice_penalty_refusals_total",
      help: "Per-rule refusals under a penalty in force (rule field blockMs): refused (enforce) or would_refuse (shadow). The refusal that starts a penalty counts in sluice_rule_results_total only; refusals answered from an instance's refusal cache count too.",
      labelNames: ["rule", "result"] as const,
      registers: [registry],
    }),
    concurrencyLeases: new Counter({
      name: "sluice_concurrency_leases_total",
      help: "Concurrency slots (leases) by event: taken (a request admitted under a concurrency rule), released (given back when the request was over), expired (gone before its release: the request outlived the lease length) and unreleased (Redis could not take the release; the lease expires).",
      labelNames: ["event"] as const,
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
      help: "Limiter calls that Redis failed or did not answer in time, by kind: timeout (this process's timers on time: Redis was late), timeout_after_lag (extended for event-loop lag, still late), down, error.",
      labelNames: ["kind"] as const,
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
    responseCharges: new Counter({
      name: "sluice_response_charges_total",
      help: "Requests admitted under rules counted by response (chargeOn), settled once the answer's status is known, by outcome: charged (the class is listed: the reservation made at admission stays), given_back (the class is not listed: the reservation was given back), window_passed (not listed, but the window it was reserved in is over: nothing to give back), no_answer (the client went away before an answer: it stays charged), failed (Redis could not take the give-back: it stays charged; the answer is unaffected).",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    gatewayResponses: new Counter({
      name: "sluice_gateway_responses_total",
      help: "Requests forwarded to tenants' upstreams, by outcome: the upstream's status class (2xx .. 5xx), or unreachable (502), timeout (504), aborted (the client went away first).",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    gatewaySeconds: new Histogram({
      name: "sluice_gateway_upstream_duration_seconds",
      help: "Time from forwarding a request until the upstream's status and headers arrived (or it failed), by outcome as in sluice_gateway_responses_total.",
      labelNames: ["outcome"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120],
      registers: [registry],
    }),
    cacheReloads: new Counter({
      name: "sluice_cache_reloads_total",
      help: "Reloads of this instance's copy of keys and rules, by kind and outcome.",
      labelNames: ["kind", "outcome"] as const,
      registers: [registry],
    }),
    simulations: new Counter({
      name: "sluice_simulations_total",
      help: "Rule simulations run on this instance, by outcome: completed, or failed (Redis unavailable, unknown tenant, ...).",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    simulationSeconds: new Histogram({
      name: "sluice_simulation_duration_seconds",
      help: "Wall time of one rule simulation (both replays, reading the trace included).",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    simulationRequests: new Counter({
      name: "sluice_simulation_replayed_requests_total",
      help: "Recorded requests replayed by rule simulations (each replayed twice: current and candidate rules).",
      registers: [registry],
    }),
    alertDeliveries: new Counter({
      name: "sluice_alert_deliveries_total",
      help: "In-product alert deliveries finished by this instance (lib/control/alerts), by condition type and outcome: delivered, or failed (every attempt failed, or one that is not retried).",
      labelNames: ["type", "outcome"] as const,
      registers: [registry],
    }),
    alertDeliveryAttempts: new Counter({
      name: "sluice_alert_delivery_attempts_total",
      help: "HTTP attempts of alert webhook deliveries, by result: ok (2xx), http_error (another status), no_answer (timeout, network, refused address).",
      labelNames: ["result"] as const,
      registers: [registry],
    }),
    alertEvaluationFailures: new Counter({
      name: "sluice_alert_evaluation_failures_total",
      help: "Alert evaluations of a tenant (or settings loads) that failed, e.g. Redis or Postgres unavailable.",
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
