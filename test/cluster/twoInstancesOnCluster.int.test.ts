/**
 * Two built servers on a Redis Cluster of 3 masters + 3 replicas (started here on loopback ports):
 * decisions stay exact under concurrency for every algorithm, the keys of many tenants spread over
 * all three masters, no CROSSSLOT error appears in any log, a rule change or key revocation
 * made through one instance is in force on the other within 1 s (../shared/CONTRACT.md), and a
 * penalty (blockMs) started through one instance holds on the other until reset.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALGORITHMS } from "@/lib/limiter/types";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { adminClient, apiCall, type ApiAnswer, type CreatedKey } from "@/test/support/adminClient";
import { startClusterBed, type ClusterBed } from "@/test/support/clusterBed";
import { withRedis } from "@/test/support/redisServer";
import { keysByPrefix } from "@/test/support/testRedis";
import { awayFromWindowEdge, msUntil } from "@/test/support/sluiceEnv";
import type { SluiceServer } from "@/test/support/sluiceServer";

const HOUR_MS = 3_600_000;
const PROPAGATION_LIMIT_MS = 1_000;
let bed: ClusterBed;

beforeAll(async () => {
  // A generous timeout: on a loaded 2-core machine a slow answer must not turn into a fail-open.
  bed = await startClusterBed("cluster-two", { SLUICE_REDIS_TIMEOUT_MS: "1000" });
});

afterAll(async () => {
  await bed?.stop();
});

const echo = (server: SluiceServer, key: CreatedKey, path = "/api/v1/echo"): Promise<ApiAnswer> =>
  apiCall(server.url, path, { key: key.key });

/** The keys under `prefix` held by the node on `port`. */
const keysOn = (port: number, prefix: string): Promise<string[]> =>
  withRedis(port, (redis) => keysByPrefix(redis, prefix));

describe("two instances on a Redis Cluster", () => {
  it("every algorithm admits exactly `limit` of concurrent requests split over both instances", async () => {
    const limit = 10;
    const rules: RuleInput[] = ALGORITHMS.map((algorithm) => ({
      name: algorithm.replace("_", "-"),
      algorithm,
      limit,
      windowMs: HOUR_MS,
      match: { path: `/api/v1/echo/${algorithm}` },
    }));
    const { key } = await bed.tenant(rules);
    await awayFromWindowEdge(HOUR_MS, 60_000);
    for (const algorithm of ALGORITHMS) {
      const answers = await Promise.all(
        Array.from({ length: 3 * limit }, (_, i) =>
          echo(i % 2 === 0 ? bed.a : bed.b, key, `/api/v1/echo/${algorithm}`),
        ),
      );
      const statuses = answers.map((r) => r.status);
      expect({
        algorithm,
        admitted: statuses.filter((s) => s === 200).length,
        refused: statuses.filter((s) => s === 429).length,
      }).toEqual({ algorithm, admitted: limit, refused: 2 * limit });
    }
  });

  it("spreads the keys of tenants over all three masters, each tenant's keys on its slot's master", async () => {
    const masters = await bed.cluster.masterPorts();
    expect(masters).toHaveLength(3);
    const rule: RuleInput = {
      name: "spread",
      algorithm: "sliding_window",
      limit: 100,
      windowMs: 60_000,
      match: { path: "/api/v1/echo/spread" },
    };
    const tenants = [];
    for (const port of masters) {
      for (let i = 0; i < 2; i++) tenants.push(await bed.tenant([rule], (owner) => owner === port));
    }
    for (const t of tenants) expect((await echo(bed.a, t.key, "/api/v1/echo/spread")).status).toBe(200);
    for (const port of masters) {
      const keys = await keysOn(port, bed.env.prefix);
      for (const t of tenants) {
        const held = keys.filter((k) => k.includes(`{${t.tenantId}}`)).length;
        if (t.ownerPort === port) expect(held).toBeGreaterThan(0);
        else expect(held).toBe(0);
      }
    }
  });

  it("a rule change made through A is in force on B within 1 s, and one made through B on A", async () => {
    const rule = (limit: number): RuleInput => ({
      name: "per-key",
      algorithm: "sliding_log",
      limit,
      windowMs: HOUR_MS,
      match: { path: "/api/v1/echo" },
    });
    const { tenantId, key } = await bed.tenant([rule(1000)]);
    expect((await echo(bed.b, key)).headers.get("ratelimit-policy")).toBe(`"per-key";q=1000;w=3600`);

    await bed.admin.putTenantRules(tenantId, [rule(3)]);
    const changedAt = performance.now();
    const elapsed = await msUntil(
      changedAt,
      async () => (await echo(bed.b, key)).headers.get("ratelimit-policy") === `"per-key";q=3;w=3600`,
      10 * PROPAGATION_LIMIT_MS,
    );
    expect(elapsed).toBeLessThan(PROPAGATION_LIMIT_MS);

    const adminB = adminClient(bed.b.url, bed.env.adminToken);
    await adminB.putTenantRules(tenantId, [rule(4)]);
    const changedOnB = performance.now();
    const back = await msUntil(
      changedOnB,
      async () => (await echo(bed.a, key)).headers.get("ratelimit-policy") === `"per-key";q=4;w=3600`,
      10 * PROPAGATION_LIMIT_MS,
    );
    expect(back).toBeLessThan(PROPAGATION_LIMIT_MS);
  });

  it("a key revoked through A is refused (401) on B within 1 s", async () => {
    const { key } = await bed.tenant([]);
    expect((await echo(bed.b, key)).status).toBe(200);
    await bed.admin.revokeKey(key.id);
    const revokedAt = performance.now();
    const elapsed = await msUntil(
      revokedAt,
      async () => (await echo(bed.b, key)).status === 401,
      10 * PROPAGATION_LIMIT_MS,
    );
    expect(elapsed).toBeLessThan(PROPAGATION_LIMIT_MS);
  });

  it("a client penalised through A is refused on B with Retry-After to the penalty's end, its counters room again; a reset through A lifts it", async () => {
    const penaltyMs = 600_000;
    // sliding_log keeps a sorted set beside the subject key holding the penalty: both in the tenant's slot.
    const { key } = await bed.tenant([
      {
        name: "strict",
        algorithm: "sliding_log",
        limit: 1,
        windowMs: 1_000,
        blockMs: penaltyMs,
        match: { path: "/api/v1/echo" },
      },
    ]);
    expect((await echo(bed.a, key)).status).toBe(200);
    const refused = await echo(bed.a, key);
    const refusedAt = Date.now();
    expect(refused.status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // the log alone would admit now
    const onB = await echo(bed.b, key);
    expect(onB.status).toBe(429);
    const retryAfter = Number(onB.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(Math.ceil((refusedAt + penaltyMs - Date.now()) / 1000) - 5);
    expect(retryAfter).toBeLessThanOrEqual(penaltyMs / 1000 - 1);
    expect((await bed.admin.request("DELETE", `/api/admin/keys/${key.id}/counters`)).status).toBe(204);
    const resetAt = performance.now();
    expect(
      await msUntil(resetAt, async () => (await echo(bed.b, key)).status === 200, 10 * PROPAGATION_LIMIT_MS),
    ).toBeLessThan(PROPAGATION_LIMIT_MS);
  });

  it("header and query rules count per value across both instances, their keys on the tenant's slot", async () => {
    const rules: RuleInput[] = [
      {
        name: "per-user",
        scope: "header",
        scopeKey: "x-user-id",
        algorithm: "sliding_log",
        limit: 2,
        windowMs: HOUR_MS,
        match: { path: "/api/v1/echo/attr" },
      },
      {
        name: "per-q",
        scope: "query",
        scopeKey: "t",
        algorithm: "token_bucket",
        limit: 100,
        windowMs: HOUR_MS,
        match: { path: "/api/v1/echo/attr" },
      },
      {
        name: "per-key-attr",
        algorithm: "fixed_window",
        limit: 100,
        windowMs: HOUR_MS,
        match: { path: "/api/v1/echo/attr" },
      },
    ];
    const { tenantId, key, ownerPort } = await bed.tenant(rules);
    const call = (server: SluiceServer, user: string) =>
      apiCall(server.url, "/api/v1/echo/attr?t=acme", { key: key.key, headers: { "x-user-id": user } });
    const statuses = [
      (await call(bed.a, "u1")).status,
      (await call(bed.b, "u1")).status,
      (await call(bed.a, "u1")).status,
      (await call(bed.b, "u2")).status,
    ];
    expect(statuses).toEqual([200, 200, 429, 200]);
    const held = (await keysOn(ownerPort, bed.env.prefix)).filter((k) => k.includes(`{${tenantId}}`));
    expect(held.some((k) => k.endsWith("Hu1"))).toBe(true);
    expect(held.some((k) => k.endsWith("Hu2"))).toBe(true);
    expect(held.some((k) => k.endsWith("2Qacme"))).toBe(true);
  });

  it("logs no CROSSSLOT error on either instance", () => {
    expect(bed.a.log()).not.toMatch(/CROSSSLOT/i);
    expect(bed.b.log()).not.toMatch(/CROSSSLOT/i);
  });
});
