/**
 * A built server started against a throwaway redis-server with `--maxmemory-policy allkeys-lru`:
 * it logs the policy loudly at start and reports it on /api/health; with
 * SLUICE_REQUIRE_NOEVICTION=1 it refuses to start (exit code 1) and says why.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiCall } from "@/test/support/adminClient";
import { startRedisServer, type RedisServerHandle } from "@/test/support/redisServer";
import { sluiceEnv } from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";

let lru: RedisServerHandle;
let server: SluiceServer | undefined;

beforeAll(async () => {
  lru = await startRedisServer({ args: ["--maxmemory-policy", "allkeys-lru"] });
});

afterAll(async () => {
  await server?.stop();
  await lru.stop();
});

it("starts with a loud warning and reports the policy on /api/health", async () => {
  server = await startSluice({ env: sluiceEnv("evict", { REDIS_URL: lru.url }).env });
  expect(server.log()).toMatch(/WARNING: Redis maxmemory-policy is allkeys-lru/);
  // A cold instance's first probes may miss their deadline on a loaded machine (and the report is
  // cached for a second): poll until Redis answers, then read the policy.
  let health = await apiCall(server.url, "/api/health");
  for (let i = 0; i < 30 && (health.body as { redis?: string }).redis !== "ok"; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    health = await apiCall(server.url, "/api/health");
  }
  expect(health.body).toMatchObject({
    redis: "ok",
    redisMaxmemoryPolicy: "allkeys-lru",
    warnings: [expect.stringMatching(/limits silently reset/)],
  });
  await server.stop();
  server = undefined;
});

it("refuses to start with SLUICE_REQUIRE_NOEVICTION=1", async () => {
  const started = startSluice({ env: sluiceEnv("evict", { REDIS_URL: lru.url, SLUICE_REQUIRE_NOEVICTION: "1" }).env });
  await expect(started).rejects.toThrow(
    /server exited \(1\)[\s\S]*maxmemory-policy is allkeys-lru[\s\S]*Refusing to start/,
  );
});
