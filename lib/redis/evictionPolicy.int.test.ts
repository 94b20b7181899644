/**
 * Reading maxmemory-policy from real, throwaway redis-servers (started by this test on loopback
 * ports): an evicting policy, CONFIG denied (managed Redis: INFO still tells), CONFIG and INFO
 * denied ("unknown"), and what the start-up check does with each (warn loudly, or refuse behind
 * SLUICE_REQUIRE_NOEVICTION).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisServer, type RedisServerHandle } from "@/test/support/redisServer";
import { checkEvictionAtStart, StartRefusedError } from "../runtime/prepareInstance";
import { createRedisClient, type RedisClient } from "./connect";
import { readEvictionPolicy } from "./evictionPolicy";

// A user of the test that is denied CONFIG (and, for the second, INFO too), as on managed Redis;
// the default user stays whole for the helper's own readiness check.
const ACL_USERS = ["user noconfig on >pw ~* &* +@all -config", "user noinfo on >pw ~* &* +@all -config -info"].join(
  "\n",
);

let lru: RedisServerHandle;
let managed: RedisServerHandle;
const clients: RedisClient[] = [];

function client(url: string): RedisClient {
  const redis = createRedisClient({ url, cluster: false, timeoutMs: 1_000, autoPipelining: false });
  clients.push(redis);
  return redis;
}

beforeAll(async () => {
  [lru, managed] = await Promise.all([
    startRedisServer({ args: ["--maxmemory-policy", "allkeys-lru", "--maxmemory", "50mb"] }),
    startRedisServer({ config: `maxmemory-policy volatile-lru\n${ACL_USERS}\n` }),
  ]);
});

afterAll(async () => {
  for (const redis of clients) redis.disconnect();
  await Promise.all([lru?.stop(), managed?.stop()]);
});

describe("readEvictionPolicy", () => {
  it("reads an evicting policy (allkeys-lru)", async () => {
    expect(await readEvictionPolicy(client(lru.url))).toBe("allkeys-lru");
  });

  it("falls back to INFO when CONFIG is denied", async () => {
    expect(await readEvictionPolicy(client(`redis://noconfig:pw@127.0.0.1:${managed.port}`))).toBe("volatile-lru");
  });

  it('answers "unknown" when CONFIG and INFO are both denied', async () => {
    expect(await readEvictionPolicy(client(`redis://noinfo:pw@127.0.0.1:${managed.port}`))).toBe("unknown");
  });

  it('answers "unknown" when Redis is not there', async () => {
    expect(await readEvictionPolicy(client("redis://127.0.0.1:1"), 300)).toBe("unknown");
  });
});

describe("the start-up check", () => {
  it("logs an evicting policy loudly and starts", async () => {
    const lines: string[] = [];
    expect(await checkEvictionAtStart(client(lru.url), false, (line) => lines.push(line))).toBe("allkeys-lru");
    expect(lines.join("\n")).toMatch(/WARNING: Redis maxmemory-policy is allkeys-lru.*limits silently reset/s);
  });

  it("refuses to start with SLUICE_REQUIRE_NOEVICTION for allkeys-lru and volatile-lru", async () => {
    await expect(checkEvictionAtStart(client(lru.url), true, () => undefined)).rejects.toThrow(StartRefusedError);
    await expect(
      checkEvictionAtStart(client(`redis://noconfig:pw@127.0.0.1:${managed.port}`), true, () => undefined),
    ).rejects.toThrow(/volatile-lru.*Refusing to start/);
  });

  it("a policy that cannot be read is logged but never refuses (it may well be noeviction)", async () => {
    const lines: string[] = [];
    expect(
      await checkEvictionAtStart(client(`redis://noinfo:pw@127.0.0.1:${managed.port}`), true, (line) =>
        lines.push(line),
      ),
    ).toBe("unknown");
    expect(lines.join("\n")).toMatch(/could not be read \(CONFIG and INFO denied\)/);
  });

  it("a Redis that refused the connection is logged as not answering, never as CONFIG and INFO denied", async () => {
    const lines: string[] = [];
    expect(await checkEvictionAtStart(client("redis://127.0.0.1:1"), true, (line) => lines.push(line))).toBe("unknown");
    expect(lines.join("\n")).toMatch(/could not be read \(Redis did not answer: the connection failed or timed out\)/);
    expect(lines.join("\n")).not.toMatch(/denied/);
  });
});
