/**
 * The day roll-up (usageDays.ts, run by usageRollup.ts) against the test database and Redis, with
 * an injected clock: a closed day is added to `UsageDay` once however many instances and runs, the
 * day's hours from two instances' minutes add up, the usage query reads whole rolled-up days from
 * `UsageDay` and the range's edges from `UsageHour`, and the quota seed reads both.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { DAY_MS, GLOBAL_SCOPE, HOUR_MS, MINUTE_MS, monitoringKeys } from "../record/monitoringKeys";
import { usageField } from "../record/usageTally";
import { rollUpDay } from "./usageDays";
import { queryUsage } from "./usageQuery";
import { UsageRollup } from "./usageRollup";
import { rolledUpUnits } from "./usageSeed";

const redis = plainRedis();
const prefix = uniquePrefix("usagedays");
const tenants: string[] = [];
/** A day well inside the hour retention, away from today's open day. */
const D = Math.floor(Date.now() / DAY_MS) - 20;

afterAll(async () => {
  const db = getDb();
  await db.usageHour.deleteMany({ where: { tenantId: { in: tenants } } });
  await db.usageDay.deleteMany({ where: { tenantId: { in: tenants } } });
  await db.usageRollupDay.deleteMany({ where: { tenantId: { in: tenants } } });
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

function newTenant(): string {
  const id = `ud${randomBytes(5).toString("hex")}`;
  tenants.push(id);
  return id;
}

const hourRow = (tenantId: string, hourMs: number, caller: string, admitted: number, rule = "*") => ({
  tenantId,
  hour: new Date(hourMs),
  caller,
  rule,
  tier: "",
  admitted,
  refused: 1,
  units: admitted * 2,
});

const dayRows = (tenantId: string) =>
  getDb().usageDay.findMany({ where: { tenantId }, orderBy: [{ day: "asc" }, { caller: "asc" }, { rule: "asc" }] });

const instance = (clock: () => number) => new UsageRollup({ redis, prefix, db: getDb, clock, log: () => undefined });

describe("the day roll-up", () => {
  it("adds a closed day once, however many times and instances run it", async () => {
    const tenantId = newTenant();
    const day = D * DAY_MS;
    await getDb().usageHour.createMany({
      data: [
        hourRow(tenantId, day + 1 * HOUR_MS, "KeyA", 3),
        hourRow(tenantId, day + 23 * HOUR_MS, "KeyA", 4),
        hourRow(tenantId, day + 5 * HOUR_MS, "KeyB", 5),
        hourRow(tenantId, day + 24 * HOUR_MS, "KeyA", 100),
      ],
    });
    const runs = await Promise.all([rollUpDay(getDb(), D), rollUpDay(getDb(), D)]);
    expect(runs.filter((n) => n > 0)).toHaveLength(1);
    expect(await rollUpDay(getDb(), D)).toBe(0);
    const rows = await dayRows(tenantId);
    expect(
      rows.map((r) => [r.day.getTime(), r.caller, Number(r.admitted), Number(r.refused), Number(r.units)]),
    ).toEqual([
      [day, "KeyA", 7, 2, 14],
      [day, "KeyB", 5, 1, 10],
    ]);
  });

  it("rolls up a day whose hours came from two instances' minutes, once, when the day closes", async () => {
    const tenantId = newTenant();
    const keys = monitoringKeys(prefix, GLOBAL_SCOPE);
    const dayEnd = (D + 1) * DAY_MS;
    // Instance one's traffic in the day's last hour but one, instance two's in its last hour, and
    // instance two's again just after midnight (the next day: not in this one).
    const minutes = [dayEnd - 90 * MINUTE_MS, dayEnd - 10 * MINUTE_MS, dayEnd + 5 * MINUTE_MS];
    for (const [i, atMs] of minutes.entries()) {
      const cell = { tenantId, hour: Math.floor(atMs / HOUR_MS), caller: "KeyT", rule: "*", tier: "" };
      await redis.hset(keys.usage(atMs / MINUTE_MS), usageField(cell, "a"), 10 + i, usageField(cell, "u"), 10 + i);
      await redis.pexpire(keys.usage(atMs / MINUTE_MS), HOUR_MS);
    }
    // Each instance rolls its minute up just after it closes: the day is still open (late minutes
    // could still come), so no day row yet.
    const one = await instance(() => minutes[0]! + 2 * MINUTE_MS).runOnce();
    const two = await instance(() => minutes[2]! + 2 * MINUTE_MS).runOnce();
    expect(one.minutes + two.minutes).toBe(3);
    expect(await dayRows(tenantId)).toEqual([]);

    // Once the look-back has passed the day's end, both instances run the day roll-up together.
    const closed = dayEnd + (180 + 1) * MINUTE_MS + 16_000;
    expect(UsageRollup.lastClosedDay(closed - 2_000)).toBe(D - 1);
    expect(UsageRollup.lastClosedDay(closed)).toBe(D);
    const [a, b] = await Promise.all([instance(() => closed).runOnce(), instance(() => closed).runOnce()]);
    expect(a.tenantDays + b.tenantDays).toBeGreaterThanOrEqual(1);
    const rows = await dayRows(tenantId);
    expect(rows.map((r) => [r.day.getTime(), r.caller, Number(r.admitted), Number(r.units)])).toEqual([
      [D * DAY_MS, "KeyT", 21, 21],
    ]);
  });

  it("answers whole rolled-up days from days and the range's edges from hours, and seeds from both", async () => {
    const tenantId = newTenant();
    const day = (n: number, hour = 0) => (D + n) * DAY_MS + hour * HOUR_MS;
    await getDb().usageHour.createMany({
      data: [
        hourRow(tenantId, day(0, 21), "KeyE", 1000), // before `from`'s hour: left out
        hourRow(tenantId, day(0, 22), "KeyE", 1), // `from`'s hour (from is 22:30): in
        hourRow(tenantId, day(1, 5), "KeyE", 10), // a whole day inside the range
        hourRow(tenantId, day(1, 6), "KeyF", 20),
        hourRow(tenantId, day(2, 0), "KeyE", 100), // before `to`: in
        hourRow(tenantId, day(2, 1), "KeyE", 2000), // at `to`: left out
        hourRow(tenantId, day(1, 7), "KeyE", 50, "7"), // a rule's own row (for the seed)
      ],
    });
    for (const n of [0, 1, 2]) await rollUpDay(getDb(), D + n);
    // The whole day now has a second source: its hours go (as hour retention would drop them), and
    // the answer still has them, from the day's rows.
    await getDb().usageHour.deleteMany({ where: { tenantId, hour: { gte: new Date(day(1)), lt: new Date(day(2)) } } });

    const from = new Date(day(0, 22) + 30 * MINUTE_MS);
    const to = new Date(day(2, 1));
    const byDay = await queryUsage(getDb(), tenantId, { from, to, granularity: "day", groupBy: "key" });
    expect(byDay.map((r) => [r.start, r.key, r.admitted, r.refused, r.units])).toEqual([
      [new Date(day(0)).toISOString(), "KeyE", 1, 1, 2],
      [new Date(day(1)).toISOString(), "KeyE", 10, 1, 20],
      [new Date(day(1)).toISOString(), "KeyF", 20, 1, 40],
      [new Date(day(2)).toISOString(), "KeyE", 100, 1, 200],
    ]);
    const oneKey = await queryUsage(getDb(), tenantId, { from, to, granularity: "day", key: "KeyF" });
    expect(oneKey.map((r) => [r.start, r.admitted])).toEqual([[new Date(day(1)).toISOString(), 20]]);
    // By hour, hours only: the day's dropped hours are gone from that view.
    const byHour = await queryUsage(getDb(), tenantId, { from, to, granularity: "hour" });
    expect(byHour.map((r) => r.admitted)).toEqual([1, 100]);

    const seed = await rolledUpUnits(getDb(), tenantId, "7", { startMs: day(0, 12), endMs: day(3) });
    expect(Object.fromEntries(seed)).toEqual({ KeyE: 100 });
    const total = await rolledUpUnits(getDb(), tenantId, "*", { startMs: day(0, 21) + 1, endMs: day(2, 1) });
    expect(Object.fromEntries(total)).toEqual({ KeyE: 2 + 20 + 200, KeyF: 40 });
  });
});
