/**
 * The gateway through built servers (needs `npm run build`): two instances on one Redis (same
 * prefix) and one Postgres, and a test upstream on the loopback that counts what reaches it
 * (test/support/testUpstream.ts). A refused request is never forwarded; a tenant without an
 * upstream gets 404; an upstream set or removed through instance A is in force on B within 1 s of
 * the admin API's answer (../shared/CONTRACT.md, "Putting Sluice in front of an API").
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { verifyUpstreamSignature } from "@/lib/policy/upstreams/upstreamSignature";
import { adminClient, apiCall, deleteTenants, type AdminClient, type CreatedKey } from "@/test/support/adminClient";
import { freePort } from "@/test/support/freePort";
import { cleanupRedis, msUntil, sluiceEnv, TEST_DATABASE_URL, waitUntil } from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";
import { startTestUpstream, type TestUpstream } from "@/test/support/testUpstream";

const HOUR_MS = 3_600_000;
const PROPAGATION_LIMIT_MS = 1_000;

// A generous Redis deadline: this file is about forwarding, and on a loaded machine the default
// 100 ms would let requests through by failMode open (uncharged), which is not what it checks.
/** Charges only /api/v1/echo: B showing it in echo's headers proves B has the tenant's last change. */
const PROBE_RULE: RuleInput = {
  name: "probe",
  algorithm: "sliding_window",
  limit: 1_000_000,
  windowMs: HOUR_MS,
  match: { path: "/api/v1/echo" },
};

const shared = sluiceEnv("http-gateway", { SLUICE_REDIS_TIMEOUT_MS: "2000" });
let a: SluiceServer;
let b: SluiceServer;
let admin: AdminClient;
let upstream: TestUpstream;
const createdTenants: string[] = [];

beforeAll(async () => {
  upstream = await startTestUpstream();
  // One after the other: two servers starting at once on 2 cores only slow each other down.
  a = await startSluice({ env: shared.env });
  b = await startSluice({ env: shared.env });
  admin = adminClient(a.url, shared.adminToken);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop(), upstream?.close()]);
  await deleteTenants(TEST_DATABASE_URL, createdTenants);
  await cleanupRedis(shared.prefix);
});

async function tenantWithKey(rules: RuleInput[] = []): Promise<{ tenantId: string; key: CreatedKey }> {
  const tenant = await admin.createTenant();
  createdTenants.push(tenant.id);
  const key = await admin.createKey(tenant.id);
  await admin.putTenantRules(tenant.id, [...rules, PROBE_RULE]);
  // Set-up, not the propagation under test: B serves the key and the whole rule list.
  await waitUntil(
    async () =>
      (await apiCall(b.url, "/api/v1/echo", { key: key.key })).headers.get("ratelimit-policy")?.includes('"probe"') ??
      false,
    10_000,
    "B serves the new tenant",
  );
  return { tenantId: tenant.id, key };
}

const putUpstream = async (tenantId: string, url: string, timeoutMs = 5_000) => {
  const res = await admin.request("PUT", `/api/admin/tenants/${tenantId}/upstream`, { url, timeoutMs });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
/** Requests of this tenant that reached the upstream. */
const reached = (tenantId: string) => upstream.seen.filter((s) => s.headers["x-sluice-tenant"] === tenantId);

describe("forwarding through the data plane", () => {
  it("admitted requests are forwarded with their rate-limit headers; refused ones (401, 429, 400) never reach the upstream", async () => {
    const orders: RuleInput = {
      name: "orders",
      algorithm: "sliding_log",
      limit: 3,
      windowMs: HOUR_MS,
      match: { path: "/orders/**" },
    };
    const { tenantId, key } = await tenantWithKey([orders]);
    await putUpstream(tenantId, `${upstream.url}/base`);

    expect((await apiCall(a.url, "/api/v1/orders/1")).status).toBe(401);
    expect((await apiCall(a.url, "/api/v1/orders/1", { key: "sluice_AAAAAAAA_notarealkeynotarealkey12" })).status).toBe(
      401,
    );
    expect((await apiCall(a.url, "/api/v1/orders/export%2Fa", { key: key.key })).status).toBe(400);

    for (let i = 1; i <= 3; i++) {
      const res = await apiCall(i % 2 ? a.url : b.url, `/api/v1/orders/${i}?x=${i}`, {
        key: key.key,
        method: "POST",
        body: { n: i },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ upstream: true, method: "POST", url: `/base/orders/${i}?x=${i}` });
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(3 - i));
    }
    const refused = await apiCall(b.url, "/api/v1/orders/4", { key: key.key });
    expect(refused.status, JSON.stringify([...refused.headers, refused.body])).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^[1-9][0-9]*$/);

    // echo is Sluice's own route, never forwarded.
    expect((await apiCall(a.url, "/api/v1/echo", { key: key.key })).body).toMatchObject({ ok: true, tenantId });

    const seen = reached(tenantId);
    expect(seen.map((s) => s.url)).toEqual(["/base/orders/1?x=1", "/base/orders/2?x=2", "/base/orders/3?x=3"]);
    for (const s of seen) {
      expect(s.headers.authorization).toBeUndefined();
      expect(s.headers["x-sluice-key"]).toBe(key.id);
      expect(s.headers["x-forwarded-for"]).toBe("127.0.0.1");
    }
  });

  it("a tenant without an upstream gets 404 problem+json for any other path", async () => {
    const { tenantId, key } = await tenantWithKey();
    const res = await apiCall(a.url, "/api/v1/orders/1", { key: key.key });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(reached(tenantId)).toHaveLength(0);
  });

  it("an unreachable upstream: 502 problem+json, naming no host", async () => {
    const { tenantId, key } = await tenantWithKey();
    const port = await freePort();
    await putUpstream(tenantId, `http://127.0.0.1:${port}`);
    const res = await apiCall(a.url, "/api/v1/orders/1", { key: key.key });
    expect(res.status).toBe(502);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(JSON.stringify(res.body)).not.toContain(String(port));
  });
});

describe("Hardening 3: upstream addresses and signed requests", () => {
  it("a link-local upstream is a 422 and nothing is stored", async () => {
    const { tenantId } = await tenantWithKey();
    for (const url of ["http://169.254.169.254", "http://[::ffff:169.254.169.254]/latest", "http://[fe80::1]:80"]) {
      const res = await admin.request("PUT", `/api/admin/tenants/${tenantId}/upstream`, { url });
      expect(res.status, url).toBe(422);
    }
    expect((await admin.request("GET", `/api/admin/tenants/${tenantId}/upstream`)).status).toBe(404);
  });

  it("with signRequests, what both instances forward carries an X-Sluice-Signature made with the secret the PUT showed", async () => {
    const { tenantId, key } = await tenantWithKey();
    const res = await admin.request("PUT", `/api/admin/tenants/${tenantId}/upstream`, {
      url: `${upstream.url}/signed`,
      signRequests: true,
    });
    expect(res.status).toBe(200);
    const secret = (res.body as { secret: string }).secret;
    await waitUntil(
      async () => (await apiCall(b.url, "/api/v1/orders/1", { key: key.key })).status === 200,
      10_000,
      "B forwards",
    );
    expect((await apiCall(a.url, "/api/v1/orders/2?x=1", { key: key.key, method: "POST", body: {} })).status).toBe(200);
    const seen = reached(tenantId);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const s of seen)
      expect(
        verifyUpstreamSignature(
          secret,
          s.headers["x-sluice-signature"] as string,
          { method: s.method, target: s.url, keyId: key.id },
          Date.now(),
        ),
        `${s.method} ${s.url}`,
      ).toBe(true);
  });
});

describe("two instances", () => {
  it("an upstream set through A is in force on B within 1 s, and so is its removal", async () => {
    const { tenantId, key } = await tenantWithKey();
    expect((await apiCall(b.url, "/api/v1/items", { key: key.key })).status).toBe(404);

    await putUpstream(tenantId, upstream.url);
    const setAt = performance.now();
    const setMs = await msUntil(
      setAt,
      async () => (await apiCall(b.url, "/api/v1/items", { key: key.key })).status === 200,
      10 * PROPAGATION_LIMIT_MS,
    );
    expect(setMs).toBeLessThanOrEqual(PROPAGATION_LIMIT_MS);

    const removed = await admin.request("DELETE", `/api/admin/tenants/${tenantId}/upstream`);
    expect(removed.status).toBe(204);
    const removedAt = performance.now();
    const removedMs = await msUntil(
      removedAt,
      async () => (await apiCall(b.url, "/api/v1/items", { key: key.key })).status === 404,
      10 * PROPAGATION_LIMIT_MS,
    );
    expect(removedMs).toBeLessThanOrEqual(PROPAGATION_LIMIT_MS);
  });
});
