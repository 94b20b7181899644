import { describe, expect, it } from "vitest";
import type { HealthReport } from "./checkHealth";
import { HEALTH_MAX_AGE_MS, HealthCache } from "./healthCache";

const OK: HealthReport = { redis: "ok", db: "ok", redisMaxmemoryPolicy: "noeviction" };

describe("HealthCache", () => {
  it("runs one check per second however many calls arrive, and shares a check in progress", async () => {
    let now = 1_000_000;
    let checks = 0;
    let report: HealthReport = { redis: "ok", db: "ok", redisMaxmemoryPolicy: "noeviction" };
    const cache = new HealthCache(
      async () => {
        checks++;
        return report;
      },
      () => now,
    );
    const first = await Promise.all(Array.from({ length: 50 }, () => cache.report()));
    expect(checks).toBe(1);
    expect(first.every((r) => r.db === "ok")).toBe(true);
    for (let i = 0; i < 100; i++) await cache.report();
    expect(checks).toBe(1);
    // An outage shows once the cached report is a second old.
    report = { redis: "ok", db: "down", redisMaxmemoryPolicy: "noeviction" };
    now += HEALTH_MAX_AGE_MS - 1;
    expect((await cache.report()).db).toBe("ok");
    now += 1;
    expect((await cache.report()).db).toBe("down");
    expect(checks).toBe(2);
  });

  it("a failed check is not cached as a success, and the next call after it checks again", async () => {
    let now = 0;
    let checks = 0;
    const cache = new HealthCache(
      async () => {
        checks++;
        if (checks === 1) throw new Error("boom");
        return OK;
      },
      () => now,
    );
    await expect(cache.report()).rejects.toThrow("boom");
    expect(await cache.report()).toEqual(OK);
    now += 10;
    await cache.report();
    expect(checks).toBe(2);
  });
});
