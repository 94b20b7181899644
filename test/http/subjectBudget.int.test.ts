/**
 * The subject budget (SLUICE_SUBJECT_BUDGET, lib/limiter/subjectBudget.ts) on two built servers on
 * one Redis: a client that sends a fresh header value (or check identifier) per request leaves at
 * most N x budget + overflow counters subject keys in Redis (counted under this suite's own prefix),
 * is still limited on the overflow counters, and the metric and gauge say so; a header rule's
 * window over a day is a 422.
 */
import { describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { apiCall } from "@/test/support/adminClient";
import type { SluiceServer } from "@/test/support/sluiceServer";
import { keysByPrefix, plainRedis } from "@/test/support/testRedis";
import { twoServersForSuite } from "@/test/support/twoServers";

const HOUR_MS = 3_600_000;
const BUDGET = 5;
/** Two instances, each holding at most BUDGET values, and min(BUDGET, 64) overflow counters. */
const MAX_SUBJECT_KEYS = 2 * BUDGET + BUDGET;

const servers = twoServersForSuite("http-budget", {
  SLUICE_REDIS_TIMEOUT_MS: "2000",
  SLUICE_SUBJECT_BUDGET: String(BUDGET),
});

const fixture = (rules: RuleInput[]) => servers.tenantWithKey(rules);

/** The tenant's subject keys of one scope char in Redis (H header, D identifier). */
async function subjectKeys(tenantId: string, scopeChar: string): Promise<string[]> {
  const redis = plainRedis();
  try {
    await redis.connect();
    return await keysByPrefix(redis, `${servers.env.prefix}{${tenantId}}2${scopeChar}`);
  } finally {
    redis.disconnect();
  }
}

/** The sum over the servers of a metric's series whose labels include `labels` (0 when absent). */
async function metricSum(name: string, labels: string): Promise<number> {
  let sum = 0;
  for (const server of [servers.a, servers.b]) {
    const text = await (await fetch(`${server.url}/api/metrics`)).text();
    for (const line of text.split("\n"))
      if (line.startsWith(name + "{") && line.includes(labels)) sum += Number(line.split(" ").at(-1));
  }
  return sum;
}

const serverFor = (i: number): SluiceServer => (i % 2 === 0 ? servers.a : servers.b);

describe("subject budget", () => {
  it("a fresh header value per request: subject keys stay bounded, the client is still limited, the metric moves", async () => {
    const { tenantId, key } = await fixture([
      {
        name: "per-user",
        scope: "header",
        scopeKey: "x-user-id",
        algorithm: "fixed_window",
        limit: 2,
        windowMs: HOUR_MS,
      },
    ]);
    const foldsBefore = await metricSum("sluice_subject_budget_folds_total", 'rule="per-user"');
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const answer = await apiCall(serverFor(i).url, "/api/v1/echo", {
        key: key.key,
        headers: { "x-user-id": `user-${i}` },
      });
      statuses.push(answer.status);
    }
    const keys = await subjectKeys(tenantId, "H");
    expect(keys.length).toBeLessThanOrEqual(MAX_SUBJECT_KEYS);
    // The first values have counters of their own; the rest share the overflow counters (limit 2 each).
    expect(statuses.slice(0, 2 * BUDGET - 2).every((s) => s === 200)).toBe(true);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(keys.filter((k) => k.includes("2H#~")).length).toBeGreaterThan(0);
    // A value past the budget is not a way round the limit: its overflow counter refuses it too.
    const again = [];
    for (let i = 0; i < 3; i++)
      again.push(
        (await apiCall(servers.a.url, "/api/v1/echo", { key: key.key, headers: { "x-user-id": "late" } })).status,
      );
    expect(again).toContain(429);
    expect(await metricSum("sluice_subject_budget_folds_total", 'rule="per-user"')).toBeGreaterThanOrEqual(
      foldsBefore + 60 - 2 * BUDGET,
    );
    expect(await metricSum("sluice_subject_budget_usage_ratio", 'rule="per-user"')).toBe(2);
  });

  it("a fresh check identifier per call: subject keys stay bounded", async () => {
    const { tenantId, key } = await fixture([
      { name: "per-id", scope: "identifier", algorithm: "fixed_window", limit: 1, windowMs: HOUR_MS },
    ]);
    for (let i = 0; i < 40; i++) {
      const answer = await apiCall(serverFor(i).url, "/api/v1/check", {
        method: "POST",
        key: key.key,
        body: { identifier: `id-${i}`, rule: "per-id" },
      });
      expect(answer.status).toBe(200);
    }
    expect((await subjectKeys(tenantId, "D")).length).toBeLessThanOrEqual(MAX_SUBJECT_KEYS);
  });

  it("a header rule whose window is over a day is a 422 naming the field", async () => {
    const tenant = await servers.adminA.createTenant();
    servers.track(tenant.id);
    const answer = await servers.adminA.request("PUT", `/api/admin/tenants/${tenant.id}/rules`, [
      { name: "per-user", scope: "header", scopeKey: "x-user-id", limit: 10, windowMs: 7 * 24 * HOUR_MS },
    ]);
    expect(answer.status).toBe(422);
    expect(JSON.stringify(answer.body)).toContain("windowMs must be at most 86400000 (1 day) for scope header");
  });
});
