/**
 * The billing hook (issue 33, point 5): at the end of each billing period, one signed webhook per
 * tenant with each key's usage of the closed period, to the tenant's alert webhook (the alerts'
 * signing, retries and address guard: webhookDelivery.ts, webhookTransport.ts), at least once, with
 * an idempotency key. Turned on by the alert settings' `billing: { period }` (alertSchema.ts).
 *
 * Contract
 * - `runOnce()` (every BILLING_INTERVAL_MS on each instance): for each tenant with billing on, the
 *   last period (day, week from Monday, month; at local midnight in the settings' `timeZone`, default UTC) that ended at least SETTLE_MS ago (so the usage
 *   roll-up has added its last minutes: lib/monitoring/usage/usageRollup.ts) is claimed in
 *   `BillingDelivery` (one row per tenant and period start). The claim is taken when the row is new,
 *   or when it is not delivered and its last claim is older than LEASE_MS (an instance that died
 *   mid-delivery, or a delivery that failed every attempt): so exactly one instance sends at a time,
 *   and an undelivered period is sent again until it is delivered or the next period closes.
 * - The body (docs/webhooks.md): `{ id, type: "usage.period_closed", tenantId, tenantName, period:
 *   { unit, start, end }, keys: [{ key, name, admitted, refused, units }], total }`; `id` is also the
 *   `Idempotency-Key` and `Sluice-Alert-Id` headers, the same on every attempt and instance
 *   (`bill_<tenantId>_<unit>_<start>`), so a receiver drops duplicates.
 * - Never throws from the timer; a failed run is logged once per outage.
 */
import { config } from "../../config/config";
import type { PrismaClient } from "../../db/generated/client";
import { periodAt } from "../../limiter/calendar";
import { queryUsage } from "../../monitoring/usage/usageQuery";
import type { BillingPeriod, BillingSettings } from "./alertSchema";
import type { TenantAlertSettings } from "./alertEvaluator";
import { loadAllAlertSettings } from "./alertStore";
import { DEFAULT_DELIVERY_POLICY, deliverWebhook, type DeliveryOutcome } from "./webhookDelivery";
import { webhookTransport } from "./webhookTransport";

export const BILLING_INTERVAL_MS = 60_000;
/** After a period's end: the roll-up's lag (minute bucket, grace, interval) and a margin. */
export const SETTLE_MS = 3 * 60_000;
export const LEASE_MS = 10 * 60_000;

/**
 * The period of `unit` holding `atMs` in `timeZone` (default UTC): from local midnight, weeks from
 * Monday, across month lengths and summer time (lib/limiter/calendar.ts, as calendar quotas count).
 */
export function periodOf(unit: BillingPeriod, atMs: number, timeZone = "UTC"): { startMs: number; endMs: number } {
  return periodAt({ unit, timeZone }, atMs);
}

/** The last period that ended at least SETTLE_MS before `nowMs`. */
export function lastClosedPeriod(
  unit: BillingPeriod,
  nowMs: number,
  timeZone = "UTC",
): { startMs: number; endMs: number } {
  const current = periodOf(unit, nowMs - SETTLE_MS, timeZone);
  return periodOf(unit, current.startMs - 1, timeZone);
}

/** The local date (YYYY-MM-DD) in `timeZone` at which a period starting at `startMs` begins. */
export function localStartDate(startMs: number, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    new Date(startMs),
  );
}

export interface BillingTenant extends TenantAlertSettings {
  billing?: BillingSettings | null;
}

export interface BillingHookDeps {
  db: () => PrismaClient;
  loadSettings: () => Promise<BillingTenant[]>;
  deliver: (target: {
    url: string;
    secret: string;
    alertId: string;
    body: string;
    headers: Record<string, string>;
  }) => Promise<DeliveryOutcome>;
  clock?: () => number;
  log?: (message: string) => void;
}

export interface BillingPayload {
  id: string;
  type: "usage.period_closed";
  tenantId: string;
  tenantName: string;
  /** `timeZone`: the billing settings' zone when one is set (absent: UTC). */
  period: { unit: BillingPeriod; timeZone?: string; start: string; end: string };
  keys: { key: string; name: string | null; admitted: number; refused: number; units: number }[];
  total: { admitted: number; refused: number; units: number };
}

export class BillingHook {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private failing = false;
  private readonly clock: () => number;
  private readonly log: (message: string) => void;

  constructor(private readonly deps: BillingHookDeps) {
    this.clock = deps.clock ?? Date.now;
    this.log = deps.log ?? ((message) => console.warn(`[sluice] ${message}`));
  }

  /** Sends what is due; answers the outcomes of the deliveries this run made. */
  async runOnce(): Promise<{ tenantId: string; id: string; outcome: DeliveryOutcome }[]> {
    const now = this.clock();
    const out: { tenantId: string; id: string; outcome: DeliveryOutcome }[] = [];
    for (const tenant of await this.deps.loadSettings()) {
      if (!tenant.billing) continue;
      const unit = tenant.billing.period;
      const timeZone = tenant.billing.timeZone ?? "UTC";
      const period = lastClosedPeriod(unit, now, timeZone);
      const id = `bill_${tenant.tenantId}_${unit}_${localStartDate(period.startMs, timeZone)}`;
      if (!(await this.claim(tenant.tenantId, period, id))) continue;
      const payload = await this.payload(tenant, unit, period, id);
      const body = JSON.stringify(payload);
      const outcome = await this.deps.deliver({
        url: tenant.webhookUrl,
        secret: tenant.secret,
        alertId: id,
        body,
        headers: { "idempotency-key": id, "sluice-event": payload.type },
      });
      await this.deps.db().billingDelivery.update({
        where: { tenantId_periodStart: { tenantId: tenant.tenantId, periodStart: new Date(period.startMs) } },
        data: {
          status: outcome.outcome,
          attempts: { increment: outcome.attempts },
          error: outcome.error,
          // The hook's clock, as the claim's lease is: never the database's.
          updatedAt: new Date(this.clock()),
        },
      });
      if (outcome.outcome === "failed")
        this.log(
          `billing webhook ${id} could not be delivered (retried in ${LEASE_MS / 60_000} min): ${outcome.error}`,
        );
      out.push({ tenantId: tenant.tenantId, id, outcome });
    }
    return out;
  }

  /** Takes the period's delivery: a new row, or an undelivered one whose last claim is older than LEASE_MS. */
  private async claim(tenantId: string, period: { startMs: number; endMs: number }, id: string): Promise<boolean> {
    const rows = await this.deps.db().$queryRawUnsafe<{ id: string }[]>(
      `INSERT INTO "BillingDelivery" ("tenantId", "periodStart", "periodEnd", "id", "status", "attempts", "updatedAt")
       VALUES ($1, $2::timestamp, $3::timestamp, $4, 'sending', 0, $5::timestamp)
       ON CONFLICT ("tenantId", "periodStart") DO UPDATE SET "status" = 'sending', "updatedAt" = EXCLUDED."updatedAt"
         WHERE "BillingDelivery"."status" <> 'delivered' AND "BillingDelivery"."updatedAt" < $6::timestamp
       RETURNING "id"`,
      tenantId,
      utc(period.startMs),
      utc(period.endMs),
      id,
      utc(this.clock()),
      utc(this.clock() - LEASE_MS),
    );
    return rows.length === 1;
  }

  private async payload(
    tenant: BillingTenant,
    unit: BillingPeriod,
    period: { startMs: number; endMs: number },
    id: string,
  ): Promise<BillingPayload> {
    const db = this.deps.db();
    const rows = await queryUsage(db, tenant.tenantId, {
      from: new Date(period.startMs),
      to: new Date(period.endMs),
      granularity: "day",
      groupBy: "key",
    });
    const total = { admitted: 0, refused: 0, units: 0 };
    const byKey = new Map<string, { admitted: number; refused: number; units: number }>();
    for (const row of rows) {
      total.admitted += row.admitted;
      total.refused += row.refused;
      total.units += row.units;
      if (row.key === undefined) continue;
      const sum = byKey.get(row.key) ?? { admitted: 0, refused: 0, units: 0 };
      sum.admitted += row.admitted;
      sum.refused += row.refused;
      sum.units += row.units;
      byKey.set(row.key, sum);
    }
    const names = new Map(
      (await db.apiKey.findMany({ where: { id: { in: [...byKey.keys()] } }, select: { id: true, name: true } })).map(
        (k) => [k.id, k.name],
      ),
    );
    return {
      id,
      type: "usage.period_closed",
      tenantId: tenant.tenantId,
      tenantName: tenant.tenantName,
      period: {
        unit,
        ...(tenant.billing?.timeZone ? { timeZone: tenant.billing.timeZone } : {}),
        start: new Date(period.startMs).toISOString(),
        end: new Date(period.endMs).toISOString(),
      },
      keys: [...byKey].map(([key, sum]) => ({ key, name: names.get(key) ?? null, ...sum })),
      total,
    };
  }

  start(intervalMs = BILLING_INTERVAL_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.busy) return;
      this.busy = true;
      this.runOnce()
        .then(() => (this.failing = false))
        .catch((error: unknown) => {
          if (!this.failing) this.log(`the billing hook failed (retried every minute): ${(error as Error).message}`);
          this.failing = true;
        })
        .finally(() => (this.busy = false));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

const utc = (ms: number) => new Date(ms).toISOString().replace("Z", "");

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The hook as an instance runs it: the alerts' transport (address guard), retry policy and settings. */
export function createBillingHook(db: () => PrismaClient): BillingHook {
  const c = config();
  const send = webhookTransport(c.alerts.allowedAddresses);
  const policy = {
    ...DEFAULT_DELIVERY_POLICY,
    attempts: c.alerts.attempts,
    baseDelayMs: c.alerts.retryBaseMs,
    timeoutMs: c.alerts.timeoutMs,
  };
  return new BillingHook({
    db,
    loadSettings: loadAllAlertSettings,
    deliver: (target) => deliverWebhook(target, { send, policy, clock: Date.now, sleep, random: Math.random }),
  });
}
