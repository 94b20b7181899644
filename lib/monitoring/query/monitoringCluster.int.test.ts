/**
 * Monitoring on a real Redis Cluster (3 masters started by the test on loopback ports): a flush
 * sends one pipeline per hash tag (tenant scopes and the global one land on different masters)
 * without CROSSSLOT errors, and every query reads the same numbers as on one node.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decisionOf, ruleResult } from "@/test/support/decisions";
import { startRedisCluster, type RedisClusterHandle } from "@/test/support/redisCluster";
import { createRedisClient, type RedisClient } from "../../redis/connect";
import { DecisionRecorder } from "../record/decisionRecorder";
import type { MonitoringDirectory } from "./monitoringDirectory";
import { monitoringQueries } from "./monitoringQueries";

const NOW = Math.floor(Date.now() / 60_000) * 60_000 - 120_000 + 5_000;
let cluster: RedisClusterHandle;
let redis: RedisClient;

beforeAll(async () => {
  cluster = await startRedisCluster({ masters: 3 });
  redis = createRedisClient({ url: cluster.url, cluster: true, timeoutMs: 2000, autoPipelining: false });
});

afterAll(async () => {
  redis?.disconnect();
  await cluster?.stop();
});

const directory: MonitoringDirectory = {
  tenantName: () => null,
  keyName: () => null,
  describeRules: async (_t, refs) => new Map(refs.map((ref) => [ref, { ref, name: null, mode: null }])),
  refOf: async () => null,
  keyTenant: async (keyId) => (keyId.startsWith("KeyA") ? "TenantAA" : "TenantBB"),
};

describe("monitoring on a Redis Cluster", () => {
  it("writes several tenants' data in one flush and reads it back", async () => {
    const recorder = new DecisionRecorder({ redis, prefix: "mc:", clock: () => NOW, timeoutMs: 2000 });
    const tenants = ["TenantAA", "TenantBB"];
    for (const tenantId of tenants) {
      const keyId = tenantId === "TenantAA" ? "KeyAAAA1" : "KeyBBBB1";
      recorder.recordRequest({
        tenantId,
        keyId,
        decision: decisionOf([ruleResult({ name: "r", ref: "1" })]),
        method: "GET",
        path: "/a",
      });
      recorder.recordRequest({
        tenantId,
        keyId,
        decision: decisionOf([ruleResult({ name: "r", ref: "1" }, { allowed: false })]),
        method: "GET",
        path: "/b",
      });
    }
    expect(await recorder.flush()).toBe("written");

    const queries = monitoringQueries({ redis, prefix: "mc:", timeoutMs: 2000, directory });
    const second = Math.floor(NOW / 1000) * 1000;
    const all = await queries.trafficSeries({ fromMs: second, toMs: second + 1000, stepMs: 1000 });
    expect(all.points.map((p) => [p.allowed, p.refused])).toEqual([[2, 2]]);
    const rates = await queries.refusalRate({ fromMs: second, toMs: second + 1000, stepMs: 1000 });
    expect(rates.byTenant.map((l) => l.tenantId).sort()).toEqual(tenants);
    expect(rates.byRule).toHaveLength(2);
    const hot = await queries.hotKeys({ fromMs: NOW - 60_000, toMs: NOW + 60_000 });
    expect(hot.keys.map((k) => [k.keyId, k.requests, k.refused])).toEqual([
      ["KeyAAAA1", 2, 1],
      ["KeyBBBB1", 2, 1],
    ]);
    const near = await queries.nearLimit({ fromMs: NOW - 60_000, toMs: NOW + 60_000 });
    expect(near.clients).toHaveLength(2);
    const recent = await queries.recentDecisions({ keyId: "KeyBBBB1" });
    expect(recent.decisions.map((d) => d.path)).toEqual(["/b", "/a"]);
  });
});
