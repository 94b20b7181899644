/**
 * Envoy's rate limit service when its stores fail mid-run (issue 30, "Done when"):
 * - Redis stopped while calls run: a private redis-server on a free loopback port is stopped
 *   between calls; each rule then answers by its failMode (`open` passes, `closed` fails the call
 *   with UNAVAILABLE, `local` is enforced in this instance's memory); restarted, the calls are
 *   decided in Redis again (a value the memory had at its limit passes: fresh Redis counters).
 * - The rule store (Postgres) failing: the rules last loaded stay in force across failed refreshes
 *   and a change notice that cannot be loaded; once it answers, the change applies.
 * No timing assertions: the waits are bounded polls that end by themselves.
 */
import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envoyRlsBed, type RlsRequestInput } from "@/test/support/envoyRlsBed";
import { freePort } from "@/test/support/freePort";
import { startRedisServer, withRedis, type RedisServerHandle } from "@/test/support/redisServer";

const port = await freePort();
let redisServer: RedisServerHandle | undefined;
// Registered before the bed's own hooks: the private Redis is up before the bed's server starts.
beforeAll(async () => {
  redisServer = await startRedisServer({ port });
}, 20_000);
afterAll(async () => {
  await redisServer?.stop();
});

const bed = envoyRlsBed("envoy-rls-faults", { redisUrl: `redis://127.0.0.1:${port}`, timeoutMs: 500 });

const perMinute = { algorithm: "fixed_window", windowMs: 60_000 } as const;
const rules = [
  { name: "open", scope: "descriptor" as const, limit: 2, ...perMinute, failMode: "open" as const },
  { name: "closed", scope: "descriptor" as const, limit: 100, ...perMinute, failMode: "closed" as const },
  { name: "local", scope: "descriptor" as const, limit: 2, ...perMinute, failMode: "local" as const },
].map((rule) => ({
  ...rule,
  match: {
    descriptor: rule.name === "local" ? [{ key: "remote_address" }] : [{ key: "generic_key", value: rule.name }],
  },
}));

const generic = (domain: string, value: string): RlsRequestInput => ({
  domain,
  descriptors: [{ entries: [{ key: "generic_key", value }] }],
});
const address = (domain: string, ip: string): RlsRequestInput => ({
  domain,
  descriptors: [{ entries: [{ key: "remote_address", value: ip }] }],
});
/** The overall code, or the gRPC status name of a failed call. */
const outcome = async (request: RlsRequestInput): Promise<string> => {
  const answer = await bed.call(request);
  return answer.response?.overall_code ?? status[answer.error!.code];
};
const outcomes = async (request: RlsRequestInput, n: number): Promise<string[]> => {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(await outcome(request));
  return out;
};
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("Redis stopped mid-run, then restarted", () => {
  it("each rule answers by its failMode while Redis is away, and by Redis again once it is back", async () => {
    const domain = await bed.tenant(rules);

    // Redis up: Redis counts (the local rule's address reaches its limit there).
    expect(await outcomes(generic(domain, "open"), 2)).toEqual(["OK", "OK"]);
    expect(await outcome(generic(domain, "closed"))).toBe("OK");
    expect(await outcomes(address(domain, "10.0.0.1"), 3)).toEqual(["OK", "OK", "OVER_LIMIT"]);
    expect(await withRedis(port, (r) => r.dbsize())).toBeGreaterThan(0);

    await redisServer!.stop();

    // open: passes, over its limit too (Redis would refuse the third); closed: UNAVAILABLE, Envoy
    // then applies failure_mode_deny; local: enforced in memory, per address, from zero.
    expect(await outcomes(generic(domain, "open"), 3)).toEqual(["OK", "OK", "OK"]);
    expect(await outcome(generic(domain, "closed"))).toBe("UNAVAILABLE");
    expect(await outcomes(address(domain, "10.0.0.2"), 3)).toEqual(["OK", "OK", "OVER_LIMIT"]);
    expect(await outcome(address(domain, "10.0.0.3"))).toBe("OK");

    await redisServer!.restart();
    // Back once the closed rule is decided again (a bounded poll: the client reconnects by itself).
    let closed = "";
    for (let i = 0; i < 100 && closed !== "OK"; i++) {
      closed = await outcome(generic(domain, "closed"));
      if (closed !== "OK") await sleep(100);
    }
    expect(closed).toBe("OK");
    // In Redis again: 10.0.0.2, at its limit in memory, has a fresh Redis counter (the restarted
    // server kept no data), and that counter is in Redis.
    expect(await outcomes(address(domain, "10.0.0.2"), 3)).toEqual(["OK", "OK", "OVER_LIMIT"]);
    const keys = await withRedis(port, (r) => r.keys(`${bed.prefix}*`));
    expect(keys.some((key) => key.endsWith("10.0.0.2"))).toBe(true);
  }, 60_000);
});

describe("the rule store (Postgres) failing", () => {
  it("the rules last loaded stay in force through failed refreshes and a change notice; back, the change applies", async () => {
    const domain = await bed.tenant([{ ...rules[1]!, limit: 1 }]);
    const request = generic(domain, "closed");
    bed.storeDown(true);
    try {
      await bed.reload();
      // A change the store cannot be read for: the notice fails, the loaded rules stay.
      await expect(bed.tenant([{ ...rules[1]!, limit: 3 }], domain)).rejects.toThrow(/rule store unreachable/);
      await bed.reload();
      expect(await outcomes(request, 2)).toEqual(["OK", "OVER_LIMIT"]);
    } finally {
      bed.storeDown(false);
    }
    await bed.reload();
    // The change (limit 3) applies: the same counter, one charge made, two more pass.
    expect(await outcomes(request, 3)).toEqual(["OK", "OK", "OVER_LIMIT"]);
  }, 30_000);
});
