/**
 * The usage roll-up: the monitoring flushes' metering hashes (`{-}mg:<minute>`,
 * lib/monitoring/record/monitoringKeys.ts) into Postgres (`UsageHour`), off the request path.
 *
 * Contract
 * - `runOnce()` rolls up every closed minute still in Redis: a minute M is closed once the clock is
 *   past its end by GRACE_MS (a flush writes to the minute it starts in, and gives up after
 *   MONITORING_TIMEOUT_MS, far below the grace). Minutes up to LOOKBACK_MINUTES back are looked at
 *   (a hash lives 24 h, so an instance that was down longer than the look-back leaves the older
 *   minutes to expire: they are lost, and logged as such only by their absence).
 * - Exactly once, on any number of instances: a minute's cells are added to `UsageHour` (upsert
 *   adding) in one transaction with the minute's row in the ledger `UsageRollupMinute` (INSERT ON
 *   CONFLICT DO NOTHING first: an instance that finds the minute already there adds nothing). The
 *   hash is deleted only after the commit; a failure before it leaves the hash for the next round.
 * - `start(intervalMs)` runs it every interval (default USAGE_ROLLUP_INTERVAL_MS, at most 60 s) on an
 *   unref'd timer, one run at a time; a failed run is logged once per outage.
 * - Each run then rolls every newly closed UTC day up into `UsageDay` (usageDays.ts `rollUpDay`,
 *   exactly once per tenant and day): day D is closed once no minute of it can be rolled up any
 *   more (its end + LOOKBACK_MINUTES + 1 minutes + GRACE_MS, `lastClosedDay`). An instance starts
 *   DAY_CATCH_UP days back (days already in the ledger cost one scan of their hours and add nothing).
 * - At most hourly it deletes hours older than USAGE_HOUR_RETENTION_DAYS, days older than
 *   USAGE_RETENTION_DAYS and minute ledger rows older than LEDGER_DAYS.
 */
import type { PrismaClient } from "../../db/generated/client";
import type { RedisClient } from "../../redis/connect";
import { DAY_MS, GLOBAL_SCOPE, HOUR_MS, MINUTE_MS, monitoringKeys } from "../record/monitoringKeys";
import { parseUsageField } from "../record/usageTally";
import { deleteDaysBefore, rollUpDay } from "./usageDays";

export const USAGE_ROLLUP_INTERVAL_MS = 60_000;
export const GRACE_MS = 15_000;
export const LOOKBACK_MINUTES = 180;
/** At least 400 days of usage can be asked for (CONTRACT.md); a day more for the range's edges. Days are kept this long. */
export const USAGE_RETENTION_DAYS = 401;
/**
 * Hours are kept as long as days: the contract lets `granularity=hour` ask for any range within
 * 400 days. (Keeping them shorter would save rows, but an hourly query further back would find none.)
 */
export const USAGE_HOUR_RETENTION_DAYS = USAGE_RETENTION_DAYS;
/** Closed days an instance looks back at when it starts. */
export const DAY_CATCH_UP = 7;
export const LEDGER_DAYS = 3;

export interface UsageRollupOptions {
  redis: RedisClient;
  prefix: string;
  db: () => PrismaClient;
  clock?: () => number;
  log?: (message: string) => void;
}

export interface RollupOutcome {
  /** Minutes this run added to Postgres. */
  minutes: number;
  /** Cells (tenant, hour, caller, rule, tier) upserted. */
  cells: number;
  /** Minutes another instance had rolled up already (their hash deleted here). */
  skipped: number;
  /** Tenant days this run added to `UsageDay`. */
  tenantDays: number;
}

interface Row {
  tenantId: string;
  hour: number;
  caller: string;
  rule: string;
  tier: string;
  a: number;
  r: number;
  u: number;
}

/** A minute's hash as rows (fields of another shape, and zero rows, are dropped). */
export function usageRows(hash: Record<string, string>): Row[] {
  const rows = new Map<string, Row>();
  for (const [field, value] of Object.entries(hash)) {
    const parsed = parseUsageField(field);
    const n = Number(value);
    if (!parsed || !Number.isSafeInteger(n)) continue;
    const id = field.slice(0, field.length - 2);
    let row = rows.get(id);
    if (!row) {
      const { tenantId, hour, caller, rule, tier } = parsed;
      row = { tenantId, hour, caller, rule, tier, a: 0, r: 0, u: 0 };
      rows.set(id, row);
    }
    row[parsed.counter] += n;
  }
  return [...rows.values()].filter((row) => row.a !== 0 || row.r !== 0 || row.u !== 0);
}

const UPSERT = `
INSERT INTO "UsageHour" ("tenantId", "hour", "caller", "rule", "tier", "admitted", "refused", "units")
SELECT t, to_timestamp(h * 3600) AT TIME ZONE 'UTC', c, r, ti, a, re, u
FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[])
  AS x(t, h, c, r, ti, a, re, u)
ON CONFLICT ("tenantId", "hour", "rule", "caller", "tier") DO UPDATE SET
  "admitted" = "UsageHour"."admitted" + EXCLUDED."admitted",
  "refused" = "UsageHour"."refused" + EXCLUDED."refused",
  "units" = "UsageHour"."units" + EXCLUDED."units"`;

/** Rows per statement: bounds one statement's parameters and memory. */
const CHUNK = 5_000;

export class UsageRollup {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<RollupOutcome> | null = null;
  private failing = false;
  private lastCleanupMs = 0;
  /** Days up to this one (days since the epoch) are rolled up by this instance; null until the first run. */
  private daysRolledThrough: number | null = null;
  private readonly clock: () => number;
  private readonly log: (message: string) => void;

  constructor(private readonly options: UsageRollupOptions) {
    this.clock = options.clock ?? Date.now;
    this.log = options.log ?? ((message) => console.warn(`[sluice] ${message}`));
  }

  /** The newest closed minute at `nowMs`. */
  static lastClosedMinute(nowMs: number): number {
    return Math.floor((nowMs - GRACE_MS) / MINUTE_MS) - 1;
  }

  /** The newest closed UTC day (days since the epoch) at `nowMs`: none of its minutes can be rolled up any more. */
  static lastClosedDay(nowMs: number): number {
    return Math.floor((nowMs - GRACE_MS - (LOOKBACK_MINUTES + 1) * MINUTE_MS) / DAY_MS) - 1;
  }

  async runOnce(): Promise<RollupOutcome> {
    if (this.running) await this.running.catch(() => undefined);
    this.running = this.roll();
    try {
      return await this.running;
    } finally {
      this.running = null;
    }
  }

  private async roll(): Promise<RollupOutcome> {
    const { redis, prefix } = this.options;
    const now = this.clock();
    const keys = monitoringKeys(prefix, GLOBAL_SCOPE);
    const last = UsageRollup.lastClosedMinute(now);
    const minutes = Array.from({ length: LOOKBACK_MINUTES }, (_, i) => last - LOOKBACK_MINUTES + 1 + i);
    const pipeline = redis.pipeline();
    for (const minute of minutes) pipeline.exists(keys.usage(minute));
    const found = (await pipeline.exec()) ?? [];
    const outcome: RollupOutcome = { minutes: 0, cells: 0, skipped: 0, tenantDays: 0 };
    for (let i = 0; i < minutes.length; i++) {
      const [error, exists] = found[i] ?? [null, 0];
      if (error) throw error;
      if (exists !== 1) continue;
      const minute = minutes[i]!;
      const key = keys.usage(minute);
      const rows = usageRows(await redis.hgetall(key));
      const added = await this.addMinute(minute, rows);
      if (added) {
        outcome.minutes++;
        outcome.cells += rows.length;
      } else outcome.skipped++;
      await redis.del(key);
    }
    outcome.tenantDays = await this.rollDays(now);
    if (now - this.lastCleanupMs >= HOUR_MS) {
      await this.cleanup(now);
      this.lastCleanupMs = now;
    }
    return outcome;
  }

  /** Adds a minute's rows unless the ledger has the minute already; true when added here. */
  private async addMinute(minute: number, rows: Row[]): Promise<boolean> {
    return this.options.db().$transaction(
      async (tx) => {
        const claimed = await tx.$executeRawUnsafe(
          `INSERT INTO "UsageRollupMinute" ("prefix", "minute") VALUES ($1, $2) ON CONFLICT DO NOTHING`,
          this.options.prefix,
          minute,
        );
        if (claimed !== 1) return false;
        for (let at = 0; at < rows.length; at += CHUNK) {
          const chunk = rows.slice(at, at + CHUNK);
          await tx.$executeRawUnsafe(
            UPSERT,
            chunk.map((r) => r.tenantId),
            chunk.map((r) => r.hour),
            chunk.map((r) => r.caller),
            chunk.map((r) => r.rule),
            chunk.map((r) => r.tier),
            chunk.map((r) => r.a),
            chunk.map((r) => r.r),
            chunk.map((r) => r.u),
          );
        }
        return true;
      },
      { timeout: 60_000 },
    );
  }

  /** Rolls every closed day after the last one this instance rolled up; answers the tenant days added. */
  private async rollDays(now: number): Promise<number> {
    const last = UsageRollup.lastClosedDay(now);
    let added = 0;
    for (let day = (this.daysRolledThrough ?? last - DAY_CATCH_UP) + 1; day <= last; day++) {
      added += await rollUpDay(this.options.db(), day);
      this.daysRolledThrough = day;
    }
    return added;
  }

  private async cleanup(now: number): Promise<void> {
    const db = this.options.db();
    await db.usageHour.deleteMany({ where: { hour: { lt: new Date(now - USAGE_HOUR_RETENTION_DAYS * DAY_MS) } } });
    await deleteDaysBefore(db, now - USAGE_RETENTION_DAYS * DAY_MS);
    await db.usageRollupMinute.deleteMany({ where: { rolledUpAt: { lt: new Date(now - LEDGER_DAYS * DAY_MS) } } });
  }

  start(intervalMs = USAGE_ROLLUP_INTERVAL_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), Math.min(intervalMs, USAGE_ROLLUP_INTERVAL_MS));
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    try {
      await this.runOnce();
      if (this.failing) this.log("usage roll-up works again");
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.log(`usage roll-up failed, retrying every interval: ${(error as Error).message}`);
      this.failing = true;
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
  }
}
