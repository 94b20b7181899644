/**
 * Calendar quotas (rule field period, issue 33) in a real Redis: the script counts in the period
 * that holds its time, the answer gives the period's real end (month lengths, summer time), the
 * key lives until that end (and a margin), an instance whose clock is off still counts in the
 * right period, a give-back lands in the reservation's period, and the Lua agrees with the model.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import { fixedWindow, type FixedWindowState } from "./algorithms/fixedWindow";
import { periodAt, PERIOD_MAX_MS, type CalendarPeriod } from "./calendar";
import { createLimiter } from "./decide";
import { rateLimitHeaders } from "./headers";
import { counterKey } from "./keys";
import type { Subject } from "./types";

const redis = plainRedis();
const prefix = uniquePrefix("calendar");
const limiter = createLimiter({ redis, prefix, timeoutMs: 5000 });
let seq = 0;

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

const calendarRule = (period: CalendarPeriod, limit: number) =>
  limiterRule({ name: `cal${seq}`, limit, windowMs: PERIOD_MAX_MS[period.unit], period });
const subjectOf = (): Subject => ({ tenantId: `cal${seq++}`, keyId: "k" });

describe("a fixed_window rule counted per calendar period", () => {
  it("a Berlin month: refused until local midnight of February 1st, full again from then", async () => {
    const rule = calendarRule({ unit: "month", timeZone: "Europe/Berlin" }, 3);
    const subject = subjectOf();
    const lastMinute = Date.parse("2027-01-31T22:59:00Z"); // 23:59 in Berlin
    for (let i = 0; i < 3; i++)
      expect((await limiter.decide([rule], subject, { nowMs: Date.parse("2027-01-01T00:00:00Z") + i })).allowed).toBe(
        true,
      );
    const refused = await limiter.decide([rule], subject, { nowMs: lastMinute });
    expect(refused.allowed).toBe(false);
    const headers = rateLimitHeaders(refused);
    expect(headers["Retry-After"]).toBe("60");
    expect(headers["X-RateLimit-Reset"]).toBe(String(Date.parse("2027-01-31T23:00:00Z") / 1000));
    expect(headers["RateLimit"]).toBe(`"${rule.name}";r=0;t=60`);
    const february = await limiter.decide([rule], subject, { nowMs: Date.parse("2027-01-31T23:00:00Z") });
    expect(february.allowed).toBe(true);
    // February 2027 has 28 days: its end is 27 days and 24 hours later, in winter time still.
    expect(rateLimitHeaders(february)["X-RateLimit-Reset"]).toBe(String(Date.parse("2027-02-28T23:00:00Z") / 1000));
  });

  it("a New York day of 25 hours (summer time ends): reset at the next local midnight", async () => {
    const rule = calendarRule({ unit: "day", timeZone: "America/New_York" }, 1);
    const subject = subjectOf();
    const nowMs = Date.parse("2026-11-01T04:30:00Z"); // 00:30 EDT; the day ends at 05:00Z on Nov 2
    await limiter.decide([rule], subject, { nowMs });
    const refused = await limiter.decide([rule], subject, { nowMs });
    expect(refused.retryAfterMs).toBe(Date.parse("2026-11-02T05:00:00Z") - nowMs);
    expect(refused.retryAfterMs).toBe(24.5 * 3_600_000);
  });

  it("counts in the period holding Redis TIME although this instance's clock is a day and a half behind", async () => {
    const skewed = createLimiter({ redis, prefix, timeoutMs: 5000, clock: () => Date.now() - 36 * 3_600_000 });
    const period = { unit: "day", timeZone: "UTC" } as const;
    const rule = calendarRule(period, 2);
    const subject = subjectOf();
    const first = await skewed.decide([rule], subject, {});
    const second = await limiter.decide([rule], subject, {}); // an instance with the right clock
    const third = await skewed.decide([rule], subject, {});
    expect([first.allowed, second.allowed, third.allowed]).toEqual([true, true, false]);
    const { endMs } = periodAt(period, third.nowMs);
    expect(third.retryAfterMs).toBe(endMs - third.nowMs);
    // The key lives until the period's end and a minute more (its TTL rounded up by at most 1 %:
    // lua/includes/preamble.lua ttl_text), not a window length from now.
    const ttl = await redis.pttl(counterKey(prefix, rule, subject));
    expect(ttl).toBeGreaterThan(endMs - third.nowMs);
    expect(ttl).toBeLessThanOrEqual((endMs - third.nowMs + 60_000) * 1.01);
  });

  it("gives a reservation back into its own period only (count by response)", async () => {
    const rule = { ...calendarRule({ unit: "week", timeZone: "UTC" }, 2), chargeOn: ["2xx" as const] };
    const subject = subjectOf();
    const sunday = Date.parse("2027-01-03T23:59:00Z");
    const a = await limiter.decide([rule], subject, { nowMs: sunday });
    const b = await limiter.decide([rule], subject, { nowMs: sunday });
    expect([a.allowed, b.allowed]).toEqual([true, true]);
    expect(await limiter.giveBack(b, [rule], subject, { nowMs: sunday + 1 })).toBe(1);
    expect((await limiter.decide([rule], subject, { nowMs: sunday + 2 })).allowed).toBe(true);
    // Monday: a new week, where the Sunday reservation has nothing to give back.
    const monday = Date.parse("2027-01-04T00:00:01Z");
    expect((await limiter.decide([rule], subject, { nowMs: monday })).allowed).toBe(true);
    expect(await limiter.giveBack(a, [rule], subject, { nowMs: monday })).toBe(0);
  });

  it("agrees with the reference model across a month's end", async () => {
    const period = { unit: "month", timeZone: "Asia/Tokyo" } as const;
    const rule = calendarRule(period, 5);
    const subject = subjectOf();
    const end = Date.parse("2027-02-28T15:00:00Z"); // Tokyo's March 1st
    let state: FixedWindowState | undefined;
    for (let i = 0; i < 30; i++) {
      const nowMs = end - 40_000 + i * 3_000 + (i % 3) * 7;
      const cost = 1 + (i % 2);
      const decision = await limiter.decide([{ ...rule, cost }], subject, { nowMs });
      const model = fixedWindow.evaluate(state, rule, nowMs, cost);
      if (model.allowed && model.next) state = model.next.state;
      const r = decision.results[0]!;
      const view = model.allowed ? model.after : model.before;
      expect([r.allowed, r.remaining, r.resetMs], `request ${i}`).toEqual([
        model.allowed,
        view.remaining,
        Math.ceil(view.resetMs),
      ]);
    }
  });
});
