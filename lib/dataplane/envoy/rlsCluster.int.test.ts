/**
 * Envoy's rate limit service on a Redis Cluster (3 masters, each with a replica): every key of a
 * call is under the tenant's hash tag (lib/limiter/keys.ts), so one call is one atomic script call
 * on one node, with several descriptors, and a refusal charges nothing there too. When the master
 * of a tenant's slot dies while calls run, its replica is promoted and the calls resume, decided
 * in Redis again (a `closed` rule answers UNAVAILABLE meanwhile, never anything else). No timing
 * assertions: the waits are bounded and end by themselves.
 */
import { credentials, type Client, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { status as grpcStatus } from "@grpc/grpc-js";
import { createLimiter } from "@/lib/limiter/decide";
import { AccessCache } from "@/lib/policy/compiled/accessCache";
import type { TenantAccess } from "@/lib/policy/compiled/accessLoader";
import { compileRule } from "@/lib/policy/compiled/effectiveRules";
import { ruleListSchema } from "@/lib/policy/rules/ruleSchema";
import { createRedisClient, type RedisClient } from "@/lib/redis/connect";
import { startRedisCluster, type RedisClusterHandle } from "@/test/support/redisCluster";
import { rlsProto } from "./rlsProto";
import { startRlsServer, type RlsServer } from "./rlsServer";

const FAILOVER = "Fail0001";
let cluster: RedisClusterHandle;
let redis: RedisClient;
let server: RlsServer;
let client: Client;
const tenants = new Map<string, TenantAccess>();
const access = new AccessCache({
  loadAll: async () => new Map(tenants),
  loadTenant: async (id) => tenants.get(id) ?? null,
});

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
  redis = createRedisClient({ url: cluster.url, cluster: true, timeoutMs: 2000, autoPipelining: false });
  const rules = ruleListSchema
    .parse([
      {
        name: "per-address",
        scope: "descriptor",
        algorithm: "fixed_window",
        limit: 3,
        windowMs: 60_000,
        match: { descriptor: [{ key: "remote_address" }] },
      },
      {
        name: "global",
        scope: "descriptor",
        algorithm: "gcra",
        limit: 1,
        windowMs: 60_000,
        match: { descriptor: [{ key: "generic_key", value: "api" }] },
      },
    ])
    .map((rule, i) => compileRule(rule, String(i + 1), false));
  tenants.set("Clust001", { id: "Clust001", name: "c", rules, keys: new Map() });
  const closed = { scope: "descriptor", algorithm: "fixed_window", windowMs: 60_000, failMode: "closed" } as const;
  const failoverRules = ruleListSchema
    .parse([
      { ...closed, name: "load", limit: 1_000_000, match: { descriptor: [{ key: "generic_key", value: "load" }] } },
      { ...closed, name: "per-address", limit: 3, match: { descriptor: [{ key: "remote_address" }] } },
    ])
    .map((rule, i) => compileRule(rule, String(i + 1), false));
  tenants.set(FAILOVER, { id: FAILOVER, name: "f", rules: failoverRules, keys: new Map() });
  await access.ready();
  server = await startRlsServer({
    host: "127.0.0.1",
    port: 0,
    deps: { tenant: (id) => access.tenant(id), limiter: createLimiter({ redis, prefix: "rls:", timeoutMs: 2000 }) },
  });
  client = new (rlsProto().RateLimitService)(`127.0.0.1:${server.port}`, credentials.createInsecure());
}, 60_000);

afterAll(async () => {
  client?.close();
  await server?.stop(1_000);
  redis?.disconnect();
  await cluster?.stop();
});

type Answer = { overall_code: string; statuses: { code: string; limit_remaining: number }[] };
const call = (descriptors: { entries: { key: string; value: string }[] }[]) =>
  new Promise<Answer>((resolve, reject) =>
    (
      client as unknown as Record<string, (r: unknown, cb: (e: ServiceError | null, a: Answer) => void) => void>
    ).ShouldRateLimit!.call(client, { domain: "Clust001", descriptors }, (error, answer) =>
      error ? reject(error) : resolve(answer),
    ),
  );

describe("ShouldRateLimit on a Redis Cluster", () => {
  it("decides several descriptors in one call, and a refusal charges none of them", async () => {
    const address = { entries: [{ key: "remote_address", value: "10.0.0.1" }] };
    const global = { entries: [{ key: "generic_key", value: "api" }] };
    expect((await call([address, global])).statuses.map((s) => s.code)).toEqual(["OK", "OK"]);
    const refused = await call([address, global]);
    expect(refused.overall_code).toBe("OVER_LIMIT");
    expect(refused.statuses.map((s) => s.code)).toEqual(["OK", "OVER_LIMIT"]);
    // The refused call charged nothing to the address: this second charge of it leaves 1 of 3.
    expect((await call([address])).statuses[0]!.limit_remaining).toBe(1);
  });
});

/** One call with a deadline, answering the overall code or the gRPC status name of its error. */
const outcome = (domain: string, entries: { key: string; value: string }[]) =>
  new Promise<string>((resolve) =>
    (
      client as unknown as Record<
        string,
        (r: unknown, o: { deadline: number }, cb: (e: ServiceError | null, a: Answer) => void) => void
      >
    ).ShouldRateLimit!.call(client, { domain, descriptors: [{ entries }] }, { deadline: Date.now() + 15_000 }, (e, a) =>
      resolve(e ? grpcStatus[e.code] : a.overall_code),
    ),
  );
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("a replica promoted while calls run", () => {
  it("calls resume, decided in Redis: exactly the limit for a new address", async () => {
    const load = [{ key: "generic_key", value: "load" }];
    const seen: string[] = [];
    let stop = false;
    // Calls one after another until told to stop (or 5,000 of them: the loop always ends).
    const running = (async () => {
      for (let i = 0; i < 5_000 && !stop; i++) {
        seen.push(await outcome(FAILOVER, load));
        await sleep(20);
      }
    })();
    for (let i = 0; i < 200 && seen.length < 5; i++) await sleep(50);
    expect(seen.slice(0, 5)).toEqual(["OK", "OK", "OK", "OK", "OK"]);

    const master = await cluster.slotOwnerPort(`{${FAILOVER}}`);
    const atKill = seen.length;
    await cluster.killMaster(master);
    await cluster.waitForFailover(master, 30_000);
    // Resumed: a call after the promotion is decided in Redis again (bounded poll).
    let after = "";
    for (let i = 0; i < 150 && after !== "OK"; i++) {
      after = await outcome(FAILOVER, load);
      if (after !== "OK") await sleep(100);
    }
    stop = true;
    await running;
    expect(after).toBe("OK");
    // The calls went on while the replica took over (the node timeout alone is 2 s).
    expect(seen.length).toBeGreaterThan(atKill);
    // Meanwhile a closed rule answered OK or UNAVAILABLE (Envoy's failure_mode_deny), nothing else.
    expect([...new Set(seen)].filter((code) => code !== "OK" && code !== "UNAVAILABLE")).toEqual([]);

    const address = [{ key: "remote_address", value: "10.7.7.7" }];
    const codes: string[] = [];
    for (let i = 0; i < 4; i++) codes.push(await outcome(FAILOVER, address));
    expect(codes).toEqual(["OK", "OK", "OK", "OVER_LIMIT"]);
  }, 90_000);
});
