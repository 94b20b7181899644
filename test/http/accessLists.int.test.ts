/**
 * Access lists on two built servers on one Redis and one Postgres (issue 17, point 2): a deny made
 * through A is in force on B within 1 s of A's answer, a denied request charges nothing on either
 * instance, an allow made through B passes A's requests uncharged and without rate-limit headers,
 * and both are counted in B's Prometheus metrics. The servers trust one proxy hop, so each request
 * names its client with X-Forwarded-For.
 */
import { describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { adminClient, apiCall, type ApiAnswer, type CreatedKey } from "@/test/support/adminClient";
import { msUntil, waitUntil } from "@/test/support/sluiceEnv";
import type { SluiceServer } from "@/test/support/sluiceServer";
import { metricValue } from "@/test/support/metricValue";
import { twoServersForSuite } from "@/test/support/twoServers";

const HOUR_MS = 3_600_000;
const PROPAGATION_LIMIT_MS = 1_000;

const servers = twoServersForSuite("http-access", { SLUICE_TRUST_PROXY: "1" });

const echo = (server: SluiceServer, key: CreatedKey, ip: string): Promise<ApiAnswer> =>
  apiCall(server.url, "/api/v1/echo", { key: key.key, headers: { "x-forwarded-for": ip } });

/** 100 requests per key an hour on echo: a charged request shows in X-RateLimit-Remaining. */
const PER_KEY: RuleInput = {
  name: "per-key",
  algorithm: "fixed_window",
  limit: 100,
  windowMs: HOUR_MS,
  match: { path: "/api/v1/echo" },
};

/** A tenant made through A with one key and PER_KEY, returned once B serves the rule. */
async function fixture(): Promise<{ tenantId: string; key: CreatedKey }> {
  const { adminA, b } = servers;
  const tenant = await adminA.createTenant();
  servers.track(tenant.id);
  const key = await adminA.createKey(tenant.id);
  await adminA.putTenantRules(tenant.id, [PER_KEY]);
  await waitUntil(
    async () => (await echo(b, key, "192.0.2.250")).headers.get("ratelimit-policy") === `"per-key";q=100;w=3600`,
    10_000,
    "B serves the new tenant",
  );
  return { tenantId: tenant.id, key };
}

const counter = (server: SluiceServer, verdict: string): Promise<number> =>
  metricValue(server.url, `sluice_access_list_verdicts_total{verdict="${verdict}"}`);

describe("access lists on two instances", () => {
  it("a deny made through A is in force on B within 1 s, and denied requests charge nothing on either instance", async () => {
    const { a, b, adminA } = servers;
    const { tenantId, key } = await fixture();
    const deniedBefore = await counter(b, "deny");
    const put = await adminA.request("PUT", `/api/admin/tenants/${tenantId}/access`, {
      allow: [],
      deny: ["203.0.113.0/24", "2001:db8:bad::/48"],
    });
    expect(put.status).toBe(200);
    const changedAt = performance.now();
    const elapsed = await msUntil(
      changedAt,
      async () => (await echo(b, key, "203.0.113.9")).status === 403,
      10 * PROPAGATION_LIMIT_MS,
    );
    expect(elapsed).toBeLessThan(PROPAGATION_LIMIT_MS);
    // What is left now (each poll until B applied the deny was an admitted, charged request).
    const left = Number((await echo(b, key, "198.51.100.1")).headers.get("x-ratelimit-remaining"));

    for (const server of [a, b, a, b]) {
      for (const ip of ["203.0.113.77", "2001:db8:bad:1::1"]) {
        const denied = await echo(server, key, ip);
        expect(denied.status).toBe(403);
        expect(denied.headers.get("content-type")).toBe("application/problem+json");
        expect(denied.headers.get("ratelimit")).toBeNull();
      }
    }
    // The 8 refusals charged nothing: the next request takes exactly one more unit.
    const passed = await echo(a, key, "198.51.100.1");
    expect(passed.status).toBe(200);
    expect(Number(passed.headers.get("x-ratelimit-remaining"))).toBe(left - 1);
    expect(await counter(b, "deny")).toBeGreaterThanOrEqual(deniedBefore + 5);
  });

  it("an allow made through B passes A's requests without charging and without rate-limit headers", async () => {
    const { a, b } = servers;
    const adminB = adminClient(b.url, servers.env.adminToken);
    const { tenantId, key } = await fixture();
    const put = await adminB.request("PUT", `/api/admin/tenants/${tenantId}/access`, {
      allow: ["198.51.100.0/24"],
      deny: [],
    });
    expect(put.status).toBe(200);
    await waitUntil(
      async () => (await echo(a, key, "198.51.100.2")).headers.get("ratelimit-policy") === null,
      10 * PROPAGATION_LIMIT_MS,
      "A applies the allow list",
    );
    const left = Number((await echo(b, key, "192.0.2.1")).headers.get("x-ratelimit-remaining"));
    for (let i = 0; i < 6; i++) {
      const allowed = await echo(i % 2 ? a : b, key, "198.51.100.2");
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get("x-ratelimit-remaining")).toBeNull();
    }
    const counted = await echo(a, key, "192.0.2.1");
    expect(Number(counted.headers.get("x-ratelimit-remaining"))).toBe(left - 1);
    expect(await counter(a, "allow")).toBeGreaterThan(0);
  });
});
