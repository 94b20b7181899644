import { describe, expect, it } from "vitest";
import { checkHealth, isHealthy } from "./checkHealth";

const ok = () => Promise.resolve();
const fails = () => Promise.reject(new Error("connection refused"));
const hangs = () => new Promise<never>(() => {});
const policy = (p: string) => () => Promise.resolve(p);
const safe = policy("noeviction");

describe("checkHealth", () => {
  it("reports ok for both services when both probes answer", async () => {
    const report = await checkHealth({ pingDb: ok, pingRedis: ok, evictionPolicy: safe }, 50);
    expect(report).toEqual({ redis: "ok", db: "ok", redisMaxmemoryPolicy: "noeviction" });
    expect(isHealthy(report)).toBe(true);
  });

  it("names only the service whose probe rejects as down", async () => {
    expect(await checkHealth({ pingDb: ok, pingRedis: fails, evictionPolicy: policy("unknown") }, 50)).toEqual({
      redis: "down",
      db: "ok",
      redisMaxmemoryPolicy: "unknown",
    });
    expect(await checkHealth({ pingDb: fails, pingRedis: ok, evictionPolicy: safe }, 50)).toEqual({
      redis: "ok",
      db: "down",
      redisMaxmemoryPolicy: "noeviction",
    });
  });

  it("treats a probe slower than the deadline as down, without waiting for it", async () => {
    const started = Date.now();
    const report = await checkHealth({ pingDb: hangs, pingRedis: ok, evictionPolicy: hangs }, 50);
    expect(report).toMatchObject({ redis: "ok", db: "down", redisMaxmemoryPolicy: "unknown" });
    expect(isHealthy(report)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("never throws, even when a probe throws synchronously", async () => {
    const throwsNow = () => {
      throw new Error("boom");
    };
    await expect(
      checkHealth({ pingDb: throwsNow, pingRedis: throwsNow, evictionPolicy: throwsNow }, 50),
    ).resolves.toEqual({
      redis: "down",
      db: "down",
      redisMaxmemoryPolicy: "unknown",
    });
  });

  it.each(["allkeys-lru", "allkeys-random", "volatile-lru", "volatile-ttl"])(
    "warns for an evicting policy (%s) but stays healthy: it still serves",
    async (p) => {
      const report = await checkHealth({ pingDb: ok, pingRedis: ok, evictionPolicy: policy(p) }, 50);
      expect(report.redisMaxmemoryPolicy).toBe(p);
      expect(report.warnings).toEqual([expect.stringMatching(new RegExp(`maxmemory-policy is ${p}.*noeviction`))]);
      expect(isHealthy(report)).toBe(true);
    },
  );

  it("warns when the policy cannot be read (CONFIG and INFO denied) while Redis answers", async () => {
    const report = await checkHealth({ pingDb: ok, pingRedis: ok, evictionPolicy: policy("unknown") }, 50);
    expect(report.redisMaxmemoryPolicy).toBe("unknown");
    expect(report.warnings).toEqual([expect.stringMatching(/could not be read/)]);
  });
});
