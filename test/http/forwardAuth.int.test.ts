/**
 * Forward auth at /api/v1/authorize on built servers (`npm run build` first), as a proxy calls it
 * (../shared/CONTRACT.md "Putting Sluice in front of an API"): the original method and URI in
 * X-Forwarded-Method/-Uri (Caddy, Traefik) or X-Original-Method/-URI (nginx), the client's address
 * in X-Forwarded-For (SLUICE_TRUST_PROXY=1: one proxy hop). Rules match the forwarded method and
 * path; one decision per call; two instances on one Redis share the limit.
 * The real proxies in front: forwardAuthProxies.int.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { adminClient, deleteTenants, type AdminClient, type CreatedKey } from "@/test/support/adminClient";
import { rawRequest, type RawAnswer } from "@/test/support/rawHttp";
import { cleanupRedis, sluiceEnv, TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";

const HOUR_MS = 3_600_000;
const QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";

const env = sluiceEnv("http-fwdauth", { SLUICE_TRUST_PROXY: "1", SLUICE_ANON_LIMIT_PER_MINUTE: "1000" });
let a: SluiceServer;
let b: SluiceServer;
let admin: AdminClient;
const createdTenants: string[] = [];

beforeAll(async () => {
  a = await startSluice({ env: env.env });
  b = await startSluice({ env: env.env });
  admin = adminClient(a.url, env.adminToken);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await deleteTenants(TEST_DATABASE_URL, createdTenants);
  await cleanupRedis(env.prefix);
});

async function fixture(rules: RuleInput[]): Promise<{ tenantId: string; key: CreatedKey }> {
  const tenant = await admin.createTenant();
  createdTenants.push(tenant.id);
  await admin.putTenantRules(tenant.id, rules);
  return { tenantId: tenant.id, key: await admin.createKey(tenant.id) };
}

interface Forwarded {
  method: string;
  uri: string;
  key?: string;
  clientIp?: string;
  style?: "forwarded" | "original";
  server?: SluiceServer;
  /** The method of the call to /api/v1/authorize itself (a proxy may use any). */
  via?: string;
}

function authorize(f: Forwarded): Promise<RawAnswer> {
  const names =
    f.style === "original" ? ["x-original-method", "x-original-uri"] : ["x-forwarded-method", "x-forwarded-uri"];
  const headers: Record<string, string> = {
    [names[0]!]: f.method,
    [names[1]!]: f.uri,
    "x-forwarded-for": f.clientIp ?? "192.0.2.10",
  };
  if (f.key) headers.authorization = `Bearer ${f.key}`;
  return rawRequest((f.server ?? a).url, { method: f.via ?? "GET", target: "/api/v1/authorize", headers });
}

describe("forward auth", () => {
  it("admitted: 200 with an empty body, the rate-limit headers, X-Sluice-Tenant and X-Sluice-Key", async () => {
    const { tenantId, key } = await fixture([
      {
        name: "orders",
        algorithm: "sliding_log",
        limit: 3,
        windowMs: HOUR_MS,
        match: { methods: ["GET"], path: "/orders/*" },
      },
    ]);
    const res = await authorize({ method: "GET", uri: "/orders/42?x=1", key: key.key });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(res.headers.get("x-sluice-tenant")).toBe(tenantId);
    expect(res.headers.get("x-sluice-key")).toBe(key.id);
    expect(res.headers.get("ratelimit-policy")).toBe('"orders";q=3;w=3600');
    expect(res.headers.get("x-ratelimit-remaining")).toBe("2");
  });

  it("rules match the forwarded method and path, not the authorize call's; HEAD as GET", async () => {
    const { key } = await fixture([
      {
        name: "orders",
        algorithm: "sliding_log",
        limit: 2,
        windowMs: HOUR_MS,
        match: { methods: ["GET"], path: "/orders/*" },
      },
    ]);
    // Another path, another method: the rule does not apply, no headers.
    expect(
      (await authorize({ method: "GET", uri: "/users/1", key: key.key })).headers.get("ratelimit-policy"),
    ).toBeNull();
    expect(
      (await authorize({ method: "POST", uri: "/orders/1", key: key.key })).headers.get("ratelimit-policy"),
    ).toBeNull();
    // The authorize call's own method does not count: a GET forwarded through a POST is a GET.
    expect(
      (await authorize({ method: "GET", uri: "/orders/1", key: key.key, via: "POST" })).headers.get(
        "x-ratelimit-remaining",
      ),
    ).toBe("1");
    expect(
      (await authorize({ method: "HEAD", uri: "/orders/2", key: key.key })).headers.get("x-ratelimit-remaining"),
    ).toBe("0");
  });

  it("a forwarded URI in absolute-form (http://host/path) is matched by its path", async () => {
    const { key } = await fixture([
      { name: "orders", algorithm: "sliding_log", limit: 5, windowMs: HOUR_MS, match: { path: "/orders/*" } },
    ]);
    const res = await authorize({
      method: "GET",
      uri: "http://api.example/orders/7?x=1",
      key: key.key,
      style: "original",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-remaining")).toBe("4");
  });

  it("a client cannot choose the path the rules see: ambiguous forwarded headers are a 400, nothing charged", async () => {
    const { key } = await fixture([
      { name: "exact", algorithm: "fixed_window", limit: 5, windowMs: HOUR_MS, match: { path: "/exact" } },
    ]);
    const auth = { authorization: `Bearer ${key.key}` };
    const call = (headers: Record<string, string>) =>
      rawRequest(a.url, { target: "/api/v1/authorize", headers: { ...auth, ...headers } });
    // Behind nginx (X-Original-*), a client adds X-Forwarded-Uri; behind Caddy, the other way round.
    const spoofs: Record<string, string>[] = [
      { "x-original-method": "GET", "x-original-uri": "/exact", "x-forwarded-uri": "/anything" },
      { "x-forwarded-method": "GET", "x-forwarded-uri": "/exact", "x-original-uri": "/anything" },
      { "x-original-method": "GET", "x-original-uri": "/exact", "x-forwarded-method": "POST" },
    ];
    for (const headers of spoofs) {
      const res = await call(headers);
      expect(res.status, JSON.stringify(headers)).toBe(400);
      expect(JSON.parse(res.text).detail).toMatch(/disagree/);
    }
    // The same value twice is no ambiguity.
    const same = await call({ "x-forwarded-method": "GET", "x-forwarded-uri": "/exact", "x-original-uri": "/exact" });
    expect(same.headers.get("x-ratelimit-remaining")).toBe("4");
    // A fragment is refused, as in any request target (the protected API may route /exact#part as
    // /exact); whitespace too.
    const fragment = await call({ "x-forwarded-method": "GET", "x-forwarded-uri": "/exact#part" });
    expect(fragment.status).toBe(400);
    expect((await call({ "x-forwarded-method": "GET", "x-forwarded-uri": "/exact x" })).status).toBe(400);
    // A method is any token (M-SEARCH), not only letters.
    expect((await call({ "x-forwarded-method": "M-SEARCH", "x-forwarded-uri": "/exact" })).status).toBe(200);
  });

  it("a forwarded URI sent twice is a 400, not the two joined into one path", async () => {
    const { key } = await fixture([
      { name: "exact", algorithm: "fixed_window", limit: 5, windowMs: HOUR_MS, match: { path: "/exact" } },
    ]);
    const res = await rawRequest(a.url, {
      target: "/api/v1/authorize",
      headers: {
        authorization: `Bearer ${key.key}`,
        "x-forwarded-method": "GET",
        "x-forwarded-uri": ["/exact", "/other"],
      },
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).detail).toMatch(/not several/);
  });

  it("refused: 429 problem with Retry-After, charged once per call; nginx's X-Original-* headers work the same", async () => {
    const { key } = await fixture([{ name: "tiny", algorithm: "sliding_log", limit: 2, windowMs: HOUR_MS }]);
    expect(
      (await authorize({ method: "GET", uri: "/a", key: key.key, style: "original" })).headers.get(
        "x-ratelimit-remaining",
      ),
    ).toBe("1");
    expect((await authorize({ method: "DELETE", uri: "/b", key: key.key })).headers.get("x-ratelimit-remaining")).toBe(
      "0",
    );
    const refused = await authorize({ method: "GET", uri: "/a", key: key.key, style: "original" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    const body = JSON.parse(refused.text) as { type: string; retryAfterMs: number; "violated-policies": string[] };
    expect(body.type).toBe(QUOTA_EXCEEDED);
    expect(body["violated-policies"]).toEqual(["tiny"]);
    expect(Number(refused.headers.get("retry-after"))).toBe(Math.max(1, Math.ceil(body.retryAfterMs / 1000)));
    expect(refused.headers.get("x-sluice-tenant")).toBeNull();
  });

  it("without a valid key: 401 problem with WWW-Authenticate", async () => {
    for (const key of [undefined, "sluice_nope_nope"]) {
      const res = await authorize({ method: "GET", uri: "/orders/1", ...(key ? { key } : {}) });
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.headers.get("www-authenticate")).toBe('Bearer realm="sluice"');
    }
  });

  it("the client is the address the proxy put in X-Forwarded-For", async () => {
    const { key } = await fixture([
      { name: "per-ip", scope: "ip", algorithm: "sliding_log", limit: 1, windowMs: HOUR_MS },
    ]);
    expect((await authorize({ method: "GET", uri: "/x", key: key.key, clientIp: "198.51.100.1" })).status).toBe(200);
    expect((await authorize({ method: "GET", uri: "/x", key: key.key, clientIp: "198.51.100.1" })).status).toBe(429);
    expect((await authorize({ method: "GET", uri: "/x", key: key.key, clientIp: "198.51.100.2" })).status).toBe(200);
    // A client cannot choose: only the entry the proxy appended (the right-most) counts.
    expect(
      (await authorize({ method: "GET", uri: "/x", key: key.key, clientIp: "198.51.100.3, 198.51.100.1" })).status,
    ).toBe(429);
  });

  it("a forwarded URI that cannot be decoded once, or no forwarded method and URI, is a 400 problem", async () => {
    const { key } = await fixture([]);
    for (const uri of ["/orders%2F42", "/orders/%2e%2e/admin", "/orders/%ZZ", "orders"]) {
      const res = await authorize({ method: "GET", uri, key: key.key });
      expect(res.status, uri).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
    }
    const bare = await rawRequest(a.url, {
      target: "/api/v1/authorize",
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(bare.status).toBe(400);
    expect(JSON.parse(bare.text).detail).toMatch(/X-Forwarded-Method/);
  });

  it("two instances on one Redis share the limit: N calls split across both admit exactly N", async () => {
    const limit = 6;
    const { key } = await fixture([{ name: "shared", algorithm: "sliding_log", limit, windowMs: HOUR_MS }]);
    // B learns of the new tenant within 1 s (the contract); set-up, not the assertion.
    await new Promise((r) => setTimeout(r, 1_500));
    const answers = await Promise.all(
      Array.from({ length: 2 * limit }, (_, i) =>
        authorize({ method: "GET", uri: `/r/${i}`, key: key.key, server: i % 2 === 0 ? a : b }),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(limit);
  });
});
