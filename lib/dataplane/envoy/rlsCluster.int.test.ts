/**
 * Envoy's rate limit service on a Redis Cluster: every key of a call is under the tenant's hash tag
 * (lib/limiter/keys.ts), so one call is one atomic script call on one node, with several
 * descriptors, and a refusal charges nothing there too.
 */
import { credentials, type Client, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLimiter } from "@/lib/limiter/decide";
import { AccessCache } from "@/lib/policy/compiled/accessCache";
import type { TenantAccess } from "@/lib/policy/compiled/accessLoader";
import { compileRule } from "@/lib/policy/compiled/effectiveRules";
import { ruleListSchema } from "@/lib/policy/rules/ruleSchema";
import { createRedisClient, type RedisClient } from "@/lib/redis/connect";
import { startRedisCluster, type RedisClusterHandle } from "@/test/support/redisCluster";
import { rlsProto } from "./rlsProto";
import { startRlsServer, type RlsServer } from "./rlsServer";

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
  cluster = await startRedisCluster({ masters: 3 });
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
