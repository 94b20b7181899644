/**
 * Evaluates every tenant's alert conditions in the background, on each instance, and hands each
 * firing condition to delivery at most once per condition window across all instances.
 *
 * Contract
 * - `tick()` loads the settings (every tick: a saved change is in force at the next tick on every
 *   instance), reads each tenant's observations (lib/control/alerts/alertObservations.ts), and for each
 *   condition that fires (lib/control/alerts/alertConditions.ts) claims its window; only the claim's
 *   winner builds the alert and starts its delivery. Deliveries run on their own (a slow receiver
 *   never delays the next tick); a tick while another runs is skipped.
 * - Nothing here is on the request path: it reads the monitoring data the recorder already wrote.
 * - A failure (settings, Redis) is logged once per outage and the tick moves on; a claim that
 *   cannot be taken delivers nothing (at most once). `start()` ticks every `intervalMs` on an
 *   unref'd timer; `stop()` clears it and waits for deliveries in flight.
 */
import { randomUUID } from "node:crypto";
import type { AlertConditionType, BillingSettings, ClientLimitCondition, RefusalRateCondition } from "./alertSchema";
import {
  alertWindow,
  clientsOverLimit,
  refusalRateFires,
  trailingMinutes,
  trailingRange,
  type LimitHit,
  type RefusalObservation,
} from "./alertConditions";
import type { ObservationRequest, Observations } from "./alertObservations";

export interface TenantAlertSettings {
  tenantId: string;
  tenantName: string;
  webhookUrl: string;
  secret: string;
  refusalRate: RefusalRateCondition | null;
  clientLimit: ClientLimitCondition | null;
  /** The billing hook's settings (billingHook.ts; the evaluator ignores them). */
  billing?: BillingSettings | null;
}

/** The JSON body of a delivery (docs/webhooks.md). */
export interface AlertPayload {
  id: string;
  type: AlertConditionType;
  tenant: { id: string; name: string };
  firedAt: string;
  /** The data the condition was evaluated over. */
  observedFrom: string;
  observedTo: string;
  condition: RefusalRateCondition | ClientLimitCondition;
  observed: RefusalObservation | { clients: (LimitHit & { rule: string | null })[] };
}

export interface EvaluatorDeps {
  loadSettings(): Promise<TenantAlertSettings[]>;
  observe(tenantId: string, request: ObservationRequest): Promise<Observations>;
  /** True for exactly one caller per tenant, type, window length and window index. */
  claim(tenantId: string, type: AlertConditionType, minutes: number, window: number): Promise<boolean>;
  /** Rule names of refs (null when unknown). */
  ruleNames(tenantId: string, refs: string[]): Promise<Map<string, string | null>>;
  /** Delivers and records one alert; never rejects. */
  deliver(settings: TenantAlertSettings, alert: AlertPayload): Promise<void>;
  clock?: () => number;
  log?: (message: string) => void;
  /** Told of each failed settings load or tenant evaluation (metrics); must not throw. */
  onFailure?: () => void;
}

export class AlertEvaluator {
  private running: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private failing = false;
  private readonly clock: () => number;
  private readonly log: (message: string) => void;

  constructor(private readonly deps: EvaluatorDeps) {
    this.clock = deps.clock ?? Date.now;
    this.log = deps.log ?? ((message) => console.warn(`[sluice] ${message}`));
  }

  async tick(): Promise<void> {
    if (this.running) return;
    this.running = this.evaluateAll().finally(() => (this.running = null));
    return this.running;
  }

  /** Resolves once the deliveries started so far have finished (tests, `stop`). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  start(intervalMs: number): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.settled();
  }

  private async evaluateAll(): Promise<void> {
    let failures = 0;
    let first = "";
    let settings: TenantAlertSettings[];
    try {
      settings = await this.deps.loadSettings();
    } catch (error) {
      this.deps.onFailure?.();
      return this.report(1, `alert settings could not be loaded: ${(error as Error).message}`);
    }
    for (const tenant of settings) {
      try {
        await this.evaluate(tenant, this.clock());
      } catch (error) {
        this.deps.onFailure?.();
        if (failures++ === 0)
          first = `alerts of tenant ${tenant.tenantId} could not be evaluated: ${(error as Error).message}`;
      }
    }
    this.report(failures, first);
  }

  private report(failures: number, message: string): void {
    // One line: Prisma's messages span several, which log collectors would split into entries.
    if (failures > 0 && !this.failing) this.log(message.replace(/\s+/g, " ").trim());
    if (failures === 0 && this.failing) this.log("alerts are evaluated again");
    this.failing = failures > 0;
  }

  private async evaluate(tenant: TenantAlertSettings, nowMs: number): Promise<void> {
    const { refusalRate, clientLimit } = tenant;
    const range = refusalRate ? trailingRange(nowMs, refusalRate.minutes) : undefined;
    const minutes = clientLimit ? trailingMinutes(nowMs, clientLimit.windowMinutes) : undefined;
    const seen = await this.deps.observe(tenant.tenantId, { refusalRange: range, limitMinutes: minutes });
    if (refusalRate && range && seen.totals) {
      const observed = refusalRateFires(refusalRate, seen.totals);
      if (observed)
        await this.fire(tenant, "refusal_rate", refusalRate.minutes, nowMs, {
          condition: refusalRate,
          observed,
          fromMs: range.fromMs,
          toMs: range.toMs,
        });
    }
    if (clientLimit && minutes && seen.limitCounts) {
      const hits = clientsOverLimit(clientLimit, tenant.tenantId, seen.limitCounts);
      if (hits.length > 0) {
        const fromMs = minutes[0]! * 60_000;
        await this.fire(tenant, "client_limit", clientLimit.windowMinutes, nowMs, {
          condition: clientLimit,
          hits,
          fromMs,
          toMs: nowMs,
        });
      }
    }
  }

  private async fire(
    tenant: TenantAlertSettings,
    type: AlertConditionType,
    minutes: number,
    nowMs: number,
    found: {
      condition: AlertPayload["condition"];
      observed?: RefusalObservation;
      hits?: LimitHit[];
      fromMs: number;
      toMs: number;
    },
  ): Promise<void> {
    if (!(await this.deps.claim(tenant.tenantId, type, minutes, alertWindow(nowMs, minutes).index))) return;
    let observed: AlertPayload["observed"];
    if (found.hits) {
      const names = await this.deps
        .ruleNames(tenant.tenantId, [...new Set(found.hits.map((h) => h.subject.ref))])
        .catch(() => new Map<string, string | null>());
      observed = { clients: found.hits.map((hit) => ({ ...hit, rule: names.get(hit.subject.ref) ?? null })) };
    } else {
      observed = found.observed!;
    }
    const alert: AlertPayload = {
      id: randomUUID(),
      type,
      tenant: { id: tenant.tenantId, name: tenant.tenantName },
      firedAt: new Date(nowMs).toISOString(),
      observedFrom: new Date(found.fromMs).toISOString(),
      observedTo: new Date(found.toMs).toISOString(),
      condition: found.condition,
      observed,
    };
    const delivery = this.deps.deliver(tenant, alert).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }
}
