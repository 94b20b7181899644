/**
 * Fault: a Postgres outage under traffic, against a built server on a throwaway Postgres
 * (test/support/postgresServer.ts; the shared 5432 is never touched). Requests flow continuously
 * from before Postgres stops until after it is back, and every one of them is served from the rules
 * last loaded (the same 200s and 429s, none failed or slow), even when a change notice or the
 * periodic full refresh tries to reload them; the admin API answers 503 problem+json and
 * /api/health names the database as down. Once Postgres is back, the admin API works again and a
 * rule change made then is enforced. The outage costs a few log lines, not one per request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changesChannel } from "@/lib/policy/changes/changeBus";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { adminClient, apiCall, type AdminClient, type ApiAnswer } from "@/test/support/adminClient";
import { startPostgresServer, type PostgresServerHandle } from "@/test/support/postgresServer";
import { cleanupRedis, sleep, sluiceEnv, waitUntil, type SluiceTestEnv } from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";
import { plainRedis } from "@/test/support/testRedis";
import { startTraffic, tally } from "@/test/support/traffic";

const HOUR_MS = 3_600_000;
/** Longer than the access cache's periodic full refresh (FULL_REFRESH_MS, 15 s in lib/runtime/services.ts). */
const OUTAGE_MS = 16_000;
/** Requests are served from memory: none may take long, even on a loaded machine. */
const SLOW_REQUEST_MS = 2_000;
/**
 * The outage's log lines: the rule store lost once and back once (lib/policy/compiled/accessCache.ts), the
 * alert evaluator's settings lost once and back once (lib/control/alerts/alertEvaluator.ts), one line
 * each, and slack.
 */
const MAX_OUTAGE_LOG_LINES = 5;

let postgres: PostgresServerHandle;
let setup: SluiceTestEnv;
let server: SluiceServer;
let admin: AdminClient;

beforeAll(async () => {
  postgres = await startPostgresServer();
  setup = sluiceEnv("http-pg-outage", { DATABASE_URL: postgres.url });
  server = await startSluice({ env: setup.env });
  admin = adminClient(server.url, setup.adminToken);
});

afterAll(async () => {
  await server?.stop();
  await postgres?.cleanup();
  if (setup) await cleanupRedis(setup.prefix);
});

const rules = (perKeyLimit: number): RuleInput[] => [
  { name: "per-key", algorithm: "sliding_log", limit: perKeyLimit, windowMs: HOUR_MS, match: { path: "/api/v1/echo" } },
  { name: "bulk", algorithm: "token_bucket", limit: 1_000_000, windowMs: HOUR_MS, match: { path: "/api/v1/echo/*" } },
];

/** sluice_cache_reloads_total{kind, outcome="error"} from /api/metrics. */
async function failedReloads(kind: "tenant" | "full"): Promise<number> {
  const text = await (await fetch(`${server.url}/api/metrics`)).text();
  const line = text
    .split("\n")
    .find(
      (l) =>
        l.startsWith("sluice_cache_reloads_total{") && l.includes(`kind="${kind}"`) && l.includes(`outcome="error"`),
    );
  return line ? Number(line.split(" ").at(-1)) : 0;
}

function expectServiceUnavailable(res: ApiAnswer): void {
  expect(res.status).toBe(503);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.body).toMatchObject({
    title: "Service Unavailable",
    status: 503,
    detail: expect.stringMatching(/unavailable/i),
  });
}

describe("fault: Postgres down under traffic", () => {
  it("keeps enforcing the last rules, answers 503 on the admin API and health, and recovers", async () => {
    const tenant = await admin.createTenant();
    await admin.putTenantRules(tenant.id, rules(5));
    const limited = await admin.createKey(tenant.id, "limited");
    const busy = await admin.createKey(tenant.id, "busy");
    const echo = () => apiCall(server.url, "/api/v1/echo", { key: limited.key });
    for (const remaining of [4, 3]) {
      const res = await echo();
      expect(res.status).toBe(200);
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(remaining));
    }

    const logMark = server.log().length;
    const traffic = startTraffic(() => ({ baseUrl: server.url, path: "/api/v1/echo/traffic", key: busy.key }), {
      concurrency: 1,
      pauseMs: 20,
    });
    await sleep(200);
    await postgres.stop();

    // The admin API says clearly that the store is down; so does health.
    expectServiceUnavailable(await admin.request("GET", "/api/admin/tenants"));
    expectServiceUnavailable(await admin.request("GET", `/api/admin/tenants/${tenant.id}/rules`));
    expectServiceUnavailable(await admin.request("PUT", `/api/admin/tenants/${tenant.id}/rules`, rules(100)));
    expectServiceUnavailable(
      await admin.request("POST", `/api/admin/tenants/${tenant.id}/keys`, { name: "during outage" }),
    );
    // Health answers from a check at most 1 s old (lib/control/health/healthCache.ts): within 3 s it says so.
    let health = await apiCall(server.url, "/api/health");
    await waitUntil(
      async () => (health = await apiCall(server.url, "/api/health")).status === 503,
      3_000,
      "health reporting the store down",
    );
    expect(health.status).toBe(503);
    expect(health.body).toEqual({ redis: "ok", db: "down", redisMaxmemoryPolicy: "noeviction" });

    // A change notice makes the instance reload the tenant, which fails: the last rules stay.
    const redis = plainRedis();
    await redis.connect();
    try {
      await redis.publish(changesChannel(setup.prefix), tenant.id);
    } finally {
      redis.disconnect();
    }
    // ... and so does the periodic full refresh.
    await sleep(OUTAGE_MS);
    // Both reloads were tried and failed (else what follows would prove nothing).
    expect(await failedReloads("tenant")).toBeGreaterThanOrEqual(1);
    expect(await failedReloads("full")).toBeGreaterThanOrEqual(1);

    for (const remaining of [2, 1, 0]) {
      const res = await echo();
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe(`"per-key";q=5;w=3600`);
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(remaining));
    }
    const refused = await echo();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ "violated-policies": ["per-key"] });
    const unknown = await apiCall(server.url, "/api/v1/echo", { key: `sluice_AAAAAAAA_${"A".repeat(22)}` });
    expect(unknown.status).toBe(401);

    // Postgres back: the admin API works again and a change made now is enforced.
    await postgres.start();
    await waitUntil(
      async () => (await admin.request("GET", "/api/admin/tenants")).status === 200,
      30_000,
      "admin API answers again",
    );
    const healthy = await apiCall(server.url, "/api/health");
    expect(healthy.status).toBe(200);
    expect(healthy.body).toEqual({ redis: "ok", db: "ok", redisMaxmemoryPolicy: "noeviction" });

    await admin.putTenantRules(tenant.id, rules(10));
    const raised = await echo();
    expect(raised.status).toBe(200);
    expect(raised.headers.get("ratelimit-policy")).toBe(`"per-key";q=10;w=3600`);
    // The counter kept the 5 requests of before and during the outage.
    expect(raised.headers.get("x-ratelimit-remaining")).toBe("4");
    const fresh = await admin.createKey(tenant.id, "after recovery");
    expect((await apiCall(server.url, "/api/v1/echo", { key: fresh.key })).headers.get("x-ratelimit-remaining")).toBe(
      "9",
    );

    // The traffic, from before the outage until after recovery: every request served from the
    // rules in memory, promptly.
    const seen = await traffic.stop();
    expect(seen.length).toBeGreaterThan(50);
    expect(tally(seen, (s) => `${s.status} ${s.policy}`)).toEqual({ [`200 "bulk";q=1000000;w=3600`]: seen.length });
    const slowest = Math.max(...seen.map((s) => s.ms));
    expect(slowest).toBeLessThan(SLOW_REQUEST_MS);

    // No error storm: a few lines for the whole outage, none per request.
    const lines = server
      .log()
      .slice(logMark)
      .split("\n")
      .filter((line) => line.trim() !== "");
    console.info(
      `postgres outage: ${seen.length} requests during it (slowest ${Math.round(slowest)} ms); ${lines.length} log line(s):\n${lines.join("\n")}`,
    );
    expect(lines.length).toBeLessThanOrEqual(MAX_OUTAGE_LOG_LINES);
    expect(lines.filter((line) => line.includes("rule store unreachable"))).toHaveLength(1);
    expect(lines.filter((line) => line.includes("rule store reachable again"))).toHaveLength(1);
    expect(lines.filter((line) => line.includes("alert settings could not be loaded")).length).toBeLessThanOrEqual(1);
  }, 120_000);
});
