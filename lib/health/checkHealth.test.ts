import { describe, expect, it } from "vitest";
import { checkHealth, isHealthy } from "./checkHealth";

const ok = () => Promise.resolve();
const fails = () => Promise.reject(new Error("connection refused"));
const hangs = () => new Promise<never>(() => {});

describe("checkHealth", () => {
  it("reports ok for both services when both probes answer", async () => {
    const report = await checkHealth({ pingDb: ok, pingRedis: ok }, 50);
    expect(report).toEqual({ redis: "ok", db: "ok" });
    expect(isHealthy(report)).toBe(true);
  });

  it("names only the service whose probe rejects as down", async () => {
    expect(await checkHealth({ pingDb: ok, pingRedis: fails }, 50)).toEqual({ redis: "down", db: "ok" });
    expect(await checkHealth({ pingDb: fails, pingRedis: ok }, 50)).toEqual({ redis: "ok", db: "down" });
  });

  it("treats a probe slower than the deadline as down, without waiting for it", async () => {
    const started = Date.now();
    const report = await checkHealth({ pingDb: hangs, pingRedis: ok }, 50);
    expect(report).toEqual({ redis: "ok", db: "down" });
    expect(isHealthy(report)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("never throws, even when a probe throws synchronously", async () => {
    const throwsNow = () => {
      throw new Error("boom");
    };
    await expect(checkHealth({ pingDb: throwsNow, pingRedis: throwsNow }, 50)).resolves.toEqual({
      redis: "down",
      db: "down",
    });
  });
});
