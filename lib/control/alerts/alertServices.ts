/**
 * The alert parts of the process (lib/runtime/services.ts creates them once): the evaluator,
 * ticking every SLUICE_ALERT_INTERVAL_MS on the monitoring Redis connection (never the limiter's),
 * its deliveries through the SSRF-guarded transport with the configured retry policy, each
 * finished delivery logged in Redis and counted in the Prometheus metrics, and the read of the
 * last deliveries for the admin API.
 */
import { randomUUID } from "node:crypto";
import type { AccessCache } from "../../policy/compiled/accessCache";
import { config } from "../../config/config";
import { metrics } from "../../monitoring/prometheus/metrics";
import { accessDirectory } from "../../monitoring/query/monitoringDirectory";
import type { RedisClient } from "../../redis/connect";
import { listRuleRefs } from "../../policy/rules/ruleRefs";
import type { AlertDelivery } from "./alertAnswers";
import { AlertEvaluator } from "./alertEvaluator";
import { readObservations } from "./alertObservations";
import { loadAllAlertSettings } from "./alertStore";
import { claimWindow, lastDeliveries, recordDelivery } from "./deliveryLog";
import { DEFAULT_DELIVERY_POLICY, deliverWebhook } from "./webhookDelivery";
import { webhookTransport } from "./webhookTransport";

export interface AlertServices {
  evaluator: AlertEvaluator;
  /** The tenant's last deliveries, newest first; rejects when Redis fails. */
  lastDeliveries(tenantId: string): Promise<AlertDelivery[]>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

export function createAlerts(access: AccessCache, redis: RedisClient, timeoutMs: number): AlertServices {
  const c = config();
  const m = metrics();
  const prefix = c.redisPrefix;
  const owner = randomUUID();
  // Deleted rules are named from the stored refs; API keys are never looked up here.
  const directory = accessDirectory(access, listRuleRefs, async () => null);
  const send = webhookTransport(c.alerts.allowedAddresses);
  const policy = {
    ...DEFAULT_DELIVERY_POLICY,
    attempts: c.alerts.attempts,
    baseDelayMs: c.alerts.retryBaseMs,
    timeoutMs: c.alerts.timeoutMs,
  };
  const log = (message: string) => console.warn(`[sluice] ${message}`);

  const evaluator = new AlertEvaluator({
    loadSettings: loadAllAlertSettings,
    observe: (tenantId, request) => readObservations({ redis, prefix, timeoutMs }, tenantId, request),
    claim: (tenantId, type, minutes, window) => claimWindow(redis, prefix, tenantId, type, minutes, window, owner),
    async ruleNames(tenantId, refs) {
      const labels = await directory.describeRules(tenantId, refs);
      return new Map(refs.map((ref) => [ref, labels.get(ref)?.name ?? null]));
    },
    async deliver(settings, alert) {
      const result = await deliverWebhook(
        { url: settings.webhookUrl, secret: settings.secret, alertId: alert.id, body: JSON.stringify(alert) },
        {
          send,
          policy,
          clock: Date.now,
          sleep,
          random: Math.random,
          onAttempt: (r) => m.alertDeliveryAttempts.inc({ result: r }),
        },
      );
      m.alertDeliveries.inc({ type: alert.type, outcome: result.outcome });
      if (result.outcome === "failed")
        log(
          `alert ${alert.id} (${alert.type}) of tenant ${settings.tenantId} could not be delivered after ${result.attempts} attempt(s): ${result.error}`,
        );
      const delivery: AlertDelivery = {
        id: alert.id,
        type: alert.type,
        firedAt: alert.firedAt,
        finishedAt: new Date().toISOString(),
        ...result,
      };
      await recordDelivery(redis, prefix, settings.tenantId, delivery).catch((error: unknown) =>
        log(`alert delivery ${alert.id} could not be logged: ${(error as Error).message}`),
      );
    },
    onFailure: () => m.alertEvaluationFailures.inc(),
    log,
  });
  evaluator.start(c.alerts.intervalMs);
  return { evaluator, lastDeliveries: (tenantId) => lastDeliveries(redis, prefix, tenantId) };
}
