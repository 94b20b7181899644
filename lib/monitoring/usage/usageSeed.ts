/**
 * Durable usage (issue 33, point 2): a long-window quota counter that Redis lost (a restart without
 * persistence, a failover to a replica that missed writes) is seeded again from the usage rolled
 * up into Postgres, so losing Redis does not hand every caller a fresh quota.
 *
 * Contract
 * - `UsageGuard.check()` (every GUARD_INTERVAL_MS on each instance, off the request path) tells a
 *   Redis that lost its data by a loss mark (`<prefix>{-}mz`) that every instance keeps alive
 *   (PEXPIRE LOSS_MARK_TTL_MS at each check): SET NX answering OK means the mark was gone, and the
 *   one instance whose SET won reseeds every quota counter (`seedAll`). Nothing is added to the
 *   request path.
 * - Seeded: every `enforce` fixed_window rule of scope `key` or `tenant` whose window is at least a
 *   day (`isQuotaRule`), for each subject with usage in its current window: the key (or JWT
 *   subject) callers of the rule's rows, or the tenant as a whole. The window is a start/end pair
 *   (`quotaWindow`): a calendar rule's is its period (anchored at the key's billing day if any).
 * - The seed of a subject is the units its rule was charged in the window's whole hours
 *   (rule rows of `UsageDay` for its rolled-up days, `UsageHour` for the rest; an hour only partly
 *   in the window is left out). It is applied with
 *   max semantics, through the limiter itself (a peek, then a decide charging the difference, at
 *   most what remains): the counter becomes max(its count, the seed), capped at the limit. So a
 *   seed is harmless when nothing was lost (the count already holds the seed), and never counts
 *   traffic twice (units admitted after the loss and already rolled up are in both: the max keeps one).
 * - Error bound (docs/usage.md): after a loss, a subject can be over-admitted by at most the units
 *   it was admitted in the roll-up lag before the loss (one flush, the minute bucket, GRACE_MS, the
 *   roll-up interval: under 2 min 20 s at the defaults), plus the units admitted between the loss
 *   and the end of its reseed (GUARD_INTERVAL_MS plus the seeding time) when those are fewer than the
 *   seed, plus, for a window that does not start on the hour, the units of its first partial hour;
 *   never more than the limit per window.
 */
import type { PrismaClient } from "../../db/generated/client";
import type { Limiter } from "../../limiter/decide";
import { periodAt } from "../../limiter/calendar";
import { tenantKeyPrefix } from "../../limiter/keys";
import type { LimiterRule, Subject } from "../../limiter/types";
import type { RedisClient } from "../../redis/connect";
import { DAY_MS, GLOBAL_SCOPE, HOUR_MS } from "../record/monitoringKeys";
import { spanSql, usageSpans } from "./usageDays";

export const GUARD_INTERVAL_MS = 1_000;
export const LOSS_MARK_TTL_MS = 7 * DAY_MS;
/** Subjects seeded at once. */
const SEED_CONCURRENCY = 32;

export interface SeedTenant {
  tenantId: string;
  /** The rules in force for a key or JWT subject (`keyId`), or the tenant's own rules (undefined). */
  rules(keyId?: string): LimiterRule[];
}

export function isQuotaRule(rule: LimiterRule): boolean {
  return (
    rule.algorithm === "fixed_window" &&
    rule.mode === "enforce" &&
    rule.windowMs >= DAY_MS &&
    (rule.scope === "key" || rule.scope === "tenant")
  );
}

/**
 * The rule's current window as the limiter counts it: its calendar period (with a key's billing-day
 * anchor: lib/limiter/calendar.ts), else epoch-aligned multiples of windowMs.
 */
export function quotaWindow(rule: LimiterRule, nowMs: number): { startMs: number; endMs: number } {
  if (rule.period) return periodAt(rule.period, nowMs);
  const startMs = Math.floor(nowMs / rule.windowMs) * rule.windowMs;
  return { startMs, endMs: startMs + rule.windowMs };
}

/** Units the rule was charged per caller in the window's whole hours (caller "" included). */
export async function rolledUpUnits(
  db: PrismaClient,
  tenantId: string,
  ref: string,
  window: { startMs: number; endMs: number },
): Promise<Map<string, number>> {
  const spans = await usageSpans(db, tenantId, Math.ceil(window.startMs / HOUR_MS) * HOUR_MS, window.endMs);
  const params: unknown[] = [tenantId, ref];
  const days = spanSql(`"day"`, spans.days, params);
  const hours = spanSql(`"hour"`, spans.hours, params);
  const rows = await db.$queryRawUnsafe<{ caller: string; units: bigint | number }[]>(
    `SELECT "caller", SUM("units") AS units FROM (
       SELECT "caller", "units" FROM "UsageDay" WHERE "tenantId" = $1 AND "rule" = $2 AND ${days}
       UNION ALL
       SELECT "caller", "units" FROM "UsageHour" WHERE "tenantId" = $1 AND "rule" = $2 AND ${hours}
     ) AS cells
      GROUP BY "caller"`,
    ...params,
  );
  return new Map(rows.map((r) => [r.caller, Number(r.units)]));
}

/**
 * Raises the rule's counter of `subject` to `seed` units (max semantics, capped at the limit),
 * through the limiter; answers the units charged. A race with live traffic is retried.
 */
export async function seedCounter(
  limiter: Limiter,
  rule: LimiterRule,
  subject: Subject,
  seed: number,
): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const peek = await limiter.peek([rule], subject);
    const result = peek.results[0];
    if (!result || result.source !== "redis") throw new Error(`could not read the counter of rule ${rule.name}`);
    const count = rule.limit - result.remaining;
    const delta = Math.min(seed - count, result.remaining);
    if (delta <= 0) return 0;
    const charge: LimiterRule = { ...rule, cost: delta, blockMs: 0, chargeOn: undefined };
    const decision = await limiter.decide([charge], subject);
    if (decision.allowed) return delta;
  }
  return 0;
}

export interface SeedOptions {
  limiter: Limiter;
  db: () => PrismaClient;
  tenants: () => SeedTenant[];
  clock?: () => number;
}

/** Seeds every quota counter with usage in its window; answers the subjects raised and the units. */
export async function seedAll(options: SeedOptions): Promise<{ subjects: number; units: number }> {
  const now = (options.clock ?? Date.now)();
  const jobs: (() => Promise<number>)[] = [];
  for (const tenant of options.tenants()) {
    const seen = new Set<string>();
    // Rule refs: the tenant's own, and (for key scope) each caller's rules in force, by ref.
    for (const rule of tenant.rules().filter(isQuotaRule)) {
      if (seen.has(rule.ref)) continue;
      seen.add(rule.ref);
      const units = await rolledUpUnits(options.db(), tenant.tenantId, rule.ref, quotaWindow(rule, now));
      if (rule.scope === "tenant") {
        const total = [...units.values()].reduce((a, b) => a + b, 0);
        if (total > 0) jobs.push(() => seedCounter(options.limiter, rule, { tenantId: tenant.tenantId }, total));
        continue;
      }
      for (const [caller, seed] of units) {
        if (caller === "" || caller.startsWith("@") || seed <= 0) continue;
        const own = tenant.rules(caller).find((r) => r.ref === rule.ref && isQuotaRule(r)) ?? rule;
        jobs.push(() => seedCounter(options.limiter, own, { tenantId: tenant.tenantId, keyId: caller }, seed));
      }
    }
  }
  let subjects = 0;
  let total = 0;
  for (let at = 0; at < jobs.length; at += SEED_CONCURRENCY) {
    const charged = await Promise.all(jobs.slice(at, at + SEED_CONCURRENCY).map((job) => job()));
    for (const units of charged) {
      if (units > 0) subjects++;
      total += units;
    }
  }
  return { subjects, units: total };
}

export interface UsageGuardOptions extends SeedOptions {
  redis: RedisClient;
  prefix: string;
  log?: (message: string) => void;
}

export class UsageGuard {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private failing = false;
  private readonly log: (message: string) => void;
  private readonly mark: string;

  constructor(private readonly options: UsageGuardOptions) {
    this.log = options.log ?? ((message) => console.warn(`[sluice] ${message}`));
    this.mark = `${tenantKeyPrefix(options.prefix, GLOBAL_SCOPE)}mz`;
  }

  /** "seeded" when this instance found Redis without its loss mark and reseeded the quotas. */
  async check(): Promise<"ok" | "seeded"> {
    const set = await this.options.redis.set(this.mark, String(Date.now()), "PX", LOSS_MARK_TTL_MS, "NX");
    if (set !== "OK") {
      await this.options.redis.pexpire(this.mark, LOSS_MARK_TTL_MS);
      return "ok";
    }
    let seeded: { subjects: number; units: number };
    try {
      seeded = await seedAll(this.options);
    } catch (error) {
      // Seeding again is harmless (max semantics): the next check retries it.
      await this.options.redis.del(this.mark).catch(() => undefined);
      throw error;
    }
    const { subjects, units } = seeded;
    if (subjects > 0)
      this.log(
        `Redis had lost its quota counters: ${subjects} counter(s) seeded from the usage in Postgres (${units} unit(s))`,
      );
    return "seeded";
  }

  start(intervalMs = GUARD_INTERVAL_MS): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.busy) return;
      this.busy = true;
      this.check()
        .then(() => (this.failing = false))
        .catch((error: unknown) => {
          if (!this.failing) this.log(`the quota loss check failed (retried every check): ${(error as Error).message}`);
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
