/**
 * Metering end to end (issue 33, point 4): real decisions through the data plane test bed
 * (test/support/dataPlaneBed.ts), the monitoring recorder's flush, the roll-up into Postgres run by
 * two instances at once, and the usage query: the totals agree with what the limiter admitted and
 * refused, once.
 */
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { dataPlaneBed } from "@/test/support/dataPlaneBed";
import { UsageRollup } from "./usageRollup";
import { queryUsage } from "./usageQuery";
import type { UsageInput } from "./usageParams";
import { GLOBAL_SCOPE, monitoringKeys } from "@/lib/monitoring/record/monitoringKeys";
import { usageField } from "@/lib/monitoring/record/usageTally";

const bed = dataPlaneBed("usage");
const DAY_MS = 86_400_000;

/** A roll-up whose clock is two minutes ahead: the minutes just written count as closed. */
const rollup = () =>
  new UsageRollup({ redis: bed.redis, prefix: bed.prefix, db: getDb, clock: () => Date.now() + 2 * 60_000 });

const range = (extra: Partial<UsageInput> = {}): UsageInput => ({
  from: new Date(Date.now() - DAY_MS),
  to: new Date(Date.now() + DAY_MS),
  granularity: "day",
  ...extra,
});

const sum = (rows: { admitted: number; refused: number; units: number }[]) =>
  rows.reduce(
    (t, r) => ({ admitted: t.admitted + r.admitted, refused: t.refused + r.refused, units: t.units + r.units }),
    {
      admitted: 0,
      refused: 0,
      units: 0,
    },
  );

describe("the usage roll-up", () => {
  it("adds up to what the limiter admitted and refused, once, with two instances rolling up together", async () => {
    const { tenantId, key } = await bed.tenant([
      { name: "monthly", algorithm: "fixed_window", limit: 14, windowMs: 30 * DAY_MS, cost: 2 },
    ]);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await bed.send(key, { target: "/api/v1/things" })).status);
    const admitted = statuses.filter((s) => s === 200).length;
    const refused = statuses.filter((s) => s === 429).length;
    expect(admitted).toBe(7);
    expect(refused).toBe(3);
    await bed.flushRecorder();

    const [one, two] = await Promise.all([rollup().runOnce(), rollup().runOnce()]);
    expect(one.minutes + two.minutes).toBeGreaterThan(0);
    // A third run finds nothing left: the hashes are gone once rolled up.
    expect((await rollup().runOnce()).minutes).toBe(0);

    const total = await queryUsage(getDb(), tenantId, range());
    expect(sum(total)).toEqual({ admitted, refused, units: admitted * 2 });

    const byKey = await queryUsage(getDb(), tenantId, range({ groupBy: "key", granularity: "hour" }));
    expect(byKey.every((r) => typeof r.key === "string")).toBe(true);
    expect(sum(byKey)).toEqual({ admitted, refused, units: admitted * 2 });

    const byRule = await queryUsage(getDb(), tenantId, range({ groupBy: "rule" }));
    expect(byRule.map((r) => r.rule)).toEqual(["#1"]);
    expect(sum(byRule)).toEqual({ admitted, refused, units: admitted * 2 });

    const byTier = await queryUsage(getDb(), tenantId, range({ groupBy: "tier" }));
    expect(byTier.every((r) => r.tier === undefined)).toBe(true);
    expect(sum(byTier).admitted).toBe(admitted);

    const keyId = byKey[0]!.key!;
    expect(sum(await queryUsage(getDb(), tenantId, range({ key: keyId }))).admitted).toBe(admitted);
    expect(await queryUsage(getDb(), tenantId, range({ key: "zzzzzzzz" }))).toEqual([]);
  });

  it("adds the minutes of one hour into the hour's rows (upsert adding), a minute still open left for later", async () => {
    const tenantId = `u${Date.now().toString(36).slice(-7)}`;
    const now = Date.now();
    const closed = UsageRollup.lastClosedMinute(now);
    const hour = Math.floor(now / 3_600_000);
    const cell = { tenantId, hour, caller: "k1", rule: "*", tier: "pro" };
    const keys = monitoringKeys(bed.prefix, GLOBAL_SCOPE);
    for (const minute of [closed - 2, closed - 1, closed + 1]) {
      await bed.redis.hincrby(keys.usage(minute), usageField(cell, "a"), 3);
      await bed.redis.hincrby(keys.usage(minute), usageField(cell, "r"), 1);
      await bed.redis.hincrby(keys.usage(minute), usageField(cell, "u"), 30);
      await bed.redis.pexpire(keys.usage(minute), 60_000);
    }
    const outcome = await new UsageRollup({
      redis: bed.redis,
      prefix: bed.prefix,
      db: getDb,
      clock: () => now,
    }).runOnce();
    expect(outcome.minutes).toBe(2);
    const rows = await queryUsage(getDb(), tenantId, range({ granularity: "hour", groupBy: "tier" }));
    expect(rows).toEqual([
      { start: new Date(hour * 3_600_000).toISOString(), tier: "pro", admitted: 6, refused: 2, units: 60 },
    ]);
    // The open minute is still in Redis, for a later run.
    expect(await bed.redis.exists(keys.usage(closed + 1))).toBe(1);
    await bed.redis.del(keys.usage(closed + 1));
  });
});
