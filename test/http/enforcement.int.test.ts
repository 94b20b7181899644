/**
 * Enforcement over HTTP, against one built server (`npm run build` first): what a client of /api/v1
 * sees, exactly as ../shared/CONTRACT.md states it: headers, 429/401/404/422 answers, rule matching,
 * key overrides, shadow rules, refusals that consume nothing, the anonymous limit, the decision API
 * and which client IP an ip-scope rule charges. Every tenant, key and rule is created through the
 * admin API; each test gets its own tenant.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALGORITHMS } from "@/lib/limiter/types";
import type { RuleInput } from "@/lib/rules/ruleSchema";
import { adminClient, apiCall, deleteTenants, type AdminClient, type ApiAnswer, type CreatedKey } from "@/test/support/adminClient";
import { awayFromWindowEdge, cleanupRedis, sluiceEnv, TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";

const QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";
const PROBLEM_JSON = "application/problem+json";
const HOUR_MS = 3_600_000;
const ANON_LIMIT = 5;

const main = sluiceEnv("http-enforce", { SLUICE_ANON_LIMIT_PER_MINUTE: String(ANON_LIMIT) });
let server: SluiceServer;
let admin: AdminClient;
const createdTenants: string[] = [];

beforeAll(async () => {
  server = await startSluice({ env: main.env });
  admin = adminClient(server.url, main.adminToken);
});

afterAll(async () => {
  await server?.stop();
  await deleteTenants(TEST_DATABASE_URL, createdTenants);
  await cleanupRedis(main.prefix);
});

/** A fresh tenant with the given rules and `keys` API keys. */
async function fixture(rules: RuleInput[], keys = 1, client: AdminClient = admin): Promise<{ tenantId: string; keys: CreatedKey[] }> {
  const tenant = await client.createTenant();
  createdTenants.push(tenant.id);
  await client.putTenantRules(tenant.id, rules);
  const created: CreatedKey[] = [];
  for (let i = 0; i < keys; i++) created.push(await client.createKey(tenant.id, `key ${i}`));
  return { tenantId: tenant.id, keys: created };
}

const echo = (key: string, path = "/api/v1/echo", method = "GET"): Promise<ApiAnswer> => apiCall(server.url, path, { key, method });

function expectNoRateLimitHeaders(res: ApiAnswer): void {
  for (const name of ["ratelimit", "ratelimit-policy", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after"]) {
    expect(res.headers.get(name), name).toBeNull();
  }
}

/** Asserts the contract's 429: problem body, Retry-After = ceil(retryAfterMs / 1000) >= 1. Returns retryAfterMs. */
function expectQuotaExceeded(res: ApiAnswer, violated: string[]): number {
  expect(res.status).toBe(429);
  expect(res.headers.get("content-type")).toBe(PROBLEM_JSON);
  expect(res.body).toEqual({
    type: QUOTA_EXCEEDED,
    title: "Too Many Requests",
    status: 429,
    detail: expect.any(String),
    "violated-policies": violated,
    retryAfterMs: expect.any(Number),
  });
  const retryAfterMs = (res.body as { retryAfterMs: number }).retryAfterMs;
  expect(Number.isInteger(retryAfterMs)).toBe(true);
  expect(retryAfterMs).toBeGreaterThan(0);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBe(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  return retryAfterMs;
}

function expectProblem(res: ApiAnswer, status: number, title: string): void {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe(PROBLEM_JSON);
  expect(res.body).toMatchObject({ title, status, detail: expect.any(String) });
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .*\.(js|ts):\d+/); // no stack trace
}

/** The `q` of one rule in RateLimit-Policy, or undefined when the rule is not listed. */
function policyQuota(res: ApiAnswer, name: string): number | undefined {
  const match = new RegExp(`"${name}";q=(\\d+);w=\\d+`).exec(res.headers.get("ratelimit-policy") ?? "");
  return match ? Number(match[1]) : undefined;
}

/** The `r` of one rule in RateLimit, or undefined when the rule is not listed. */
function remainingOf(res: ApiAnswer, name: string): number | undefined {
  const match = new RegExp(`"${name}";r=(\\d+);t=\\d+`).exec(res.headers.get("ratelimit") ?? "");
  return match ? Number(match[1]) : undefined;
}

describe("each algorithm admits `limit` requests, then refuses with the contract's 429", () => {
  it.each(ALGORITHMS)("%s", async (algorithm) => {
    const limit = 4;
    const { keys } = await fixture([{ name: algorithm, algorithm, limit, windowMs: HOUR_MS }]);
    await awayFromWindowEdge(HOUR_MS, 30_000); // fixed_window and sliding_window: one window

    for (let i = 1; i <= limit; i++) {
      const before = Date.now();
      const res = await echo(keys[0]!.key);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe(`"${algorithm}";q=${limit};w=3600`);
      const rl = /^"([a-z_]+)";r=(\d+);t=(\d+)$/.exec(res.headers.get("ratelimit") ?? "");
      expect(rl, res.headers.get("ratelimit") ?? "no RateLimit").not.toBeNull();
      expect(rl![1]).toBe(algorithm);
      expect(Number(rl![2])).toBe(limit - i);
      expect(Number(rl![3])).toBeLessThanOrEqual(3600);
      expect(res.headers.get("x-ratelimit-limit")).toBe(String(limit));
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(limit - i));
      const reset = Number(res.headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(Math.floor(before / 1000));
      expect(reset).toBeLessThanOrEqual(Math.ceil((Date.now() + HOUR_MS) / 1000) + 1);
      expect(res.headers.get("retry-after")).toBeNull();
    }

    for (let i = 0; i < 2; i++) {
      const before = Date.now();
      const res = await echo(keys[0]!.key);
      const after = Date.now();
      const retryAfterMs = expectQuotaExceeded(res, [algorithm]);
      const retryAfter = Number(res.headers.get("retry-after"));
      expect(res.headers.get("ratelimit-policy")).toBe(`"${algorithm}";q=${limit};w=3600`);
      expect(res.headers.get("ratelimit")).toBe(`"${algorithm}";r=0;t=${retryAfter}`);
      expect(res.headers.get("x-ratelimit-limit")).toBe(String(limit));
      expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
      // The epoch second at which quota comes back: decision time + retryAfterMs (1 s of clock slack).
      const reset = Number(res.headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(Math.ceil((before + retryAfterMs) / 1000) - 1);
      expect(reset).toBeLessThanOrEqual(Math.ceil((after + retryAfterMs) / 1000) + 1);
    }
  });
});

describe("rule application", () => {
  it("cost 5 with limit 10 admits exactly 2 requests", async () => {
    const { keys } = await fixture([{ name: "costly", algorithm: "sliding_log", limit: 10, windowMs: HOUR_MS, cost: 5 }]);
    const first = await echo(keys[0]!.key);
    expect(first.status).toBe(200);
    expect(first.headers.get("x-ratelimit-remaining")).toBe("5");
    const second = await echo(keys[0]!.key);
    expect(second.status).toBe(200);
    expect(second.headers.get("x-ratelimit-remaining")).toBe("0");
    expectQuotaExceeded(await echo(keys[0]!.key), ["costly"]);
  });

  it("matches method and path: POST /api/v1/echo/* does not apply to GET, to deeper paths or to /api/v1/echo", async () => {
    const { tenantId, keys } = await fixture([
      { name: "post-one", algorithm: "sliding_log", limit: 1, windowMs: HOUR_MS, match: { methods: ["POST"], path: "/api/v1/echo/*" } },
    ]);
    const key = keys[0]!;
    const matched = await echo(key.key, "/api/v1/echo/a", "POST");
    expect(matched.status).toBe(200);
    expect(matched.body).toEqual({ ok: true, tenantId, keyId: key.id, method: "POST", path: "/api/v1/echo/a" });
    expect(matched.headers.get("ratelimit-policy")).toBe(`"post-one";q=1;w=3600`);
    expectQuotaExceeded(await echo(key.key, "/api/v1/echo/b", "POST"), ["post-one"]);

    for (const [method, path] of [
      ["GET", "/api/v1/echo/a"],
      ["PUT", "/api/v1/echo/a"],
      ["POST", "/api/v1/echo/a/b"],
      ["POST", "/api/v1/echo"],
    ] as const) {
      const res = await echo(key.key, path, method);
      expect(res.status, `${method} ${path}`).toBe(200);
      expect(res.body).toEqual({ ok: true, tenantId, keyId: key.id, method, path });
      expectNoRateLimitHeaders(res);
    }
  });

  it("a percent-encoded path is the same path to the rules: encoding a character does not escape a rule", async () => {
    const { keys } = await fixture([{ name: "only-x", algorithm: "sliding_log", limit: 2, windowMs: HOUR_MS, match: { path: "/api/v1/echo/x" } }]);
    const key = keys[0]!.key;
    expect((await echo(key, "/api/v1/echo/x")).headers.get("x-ratelimit-remaining")).toBe("1");
    const encoded = await echo(key, "/api/v1/echo/%78");
    expect(encoded.status).toBe(200);
    expect(encoded.headers.get("x-ratelimit-remaining")).toBe("0");
    expectQuotaExceeded(await echo(key, "/api/v1/echo/%78"), ["only-x"]);
    // Paths stay case-sensitive: /X is another path.
    expectNoRateLimitHeaders(await echo(key, "/api/v1/echo/X"));
  });

  it("a request no rule matches passes without rate-limit headers", async () => {
    const { keys } = await fixture([]);
    for (let i = 0; i < 3; i++) {
      const res = await echo(keys[0]!.key);
      expect(res.status).toBe(200);
      expectNoRateLimitHeaders(res);
    }
  });

  it("a key override of the same name replaces the tenant rule for that key only; other key rules are added", async () => {
    const { keys } = await fixture([{ name: "per-key", algorithm: "sliding_log", limit: 5, windowMs: HOUR_MS }], 2);
    const [overridden, plain] = [keys[0]!, keys[1]!];
    await admin.putKeyRules(overridden.id, [
      { name: "per-key", algorithm: "sliding_log", limit: 2, windowMs: HOUR_MS },
      { name: "extra", algorithm: "sliding_log", limit: 100, windowMs: HOUR_MS },
    ]);

    for (let i = 0; i < 2; i++) {
      const res = await echo(overridden.key);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe(`"per-key";q=2;w=3600, "extra";q=100;w=3600`);
    }
    expectQuotaExceeded(await echo(overridden.key), ["per-key"]);

    for (let i = 1; i <= 5; i++) {
      const res = await echo(plain.key);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe(`"per-key";q=5;w=3600`);
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(5 - i));
    }
    expectQuotaExceeded(await echo(plain.key), ["per-key"]);
  });

  it("shadow rules never refuse; they are listed in RateLimit-Policy but not in RateLimit", async () => {
    const { keys } = await fixture([
      { name: "real", algorithm: "sliding_log", limit: 100, windowMs: HOUR_MS },
      { name: "trial", algorithm: "sliding_log", limit: 1, windowMs: HOUR_MS, mode: "shadow" },
    ]);
    for (let i = 1; i <= 4; i++) {
      const res = await echo(keys[0]!.key);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe(`"real";q=100;w=3600, "trial";q=1;w=3600`);
      expect(res.headers.get("ratelimit")).toMatch(/^"real";r=\d+;t=\d+$/);
      expect(remainingOf(res, "real")).toBe(100 - i);
      expect(res.headers.get("x-ratelimit-limit")).toBe("100");
    }

    const { keys: shadowOnly } = await fixture([{ name: "trial", algorithm: "gcra", limit: 1, windowMs: HOUR_MS, mode: "shadow" }]);
    for (let i = 0; i < 3; i++) {
      const res = await echo(shadowOnly[0]!.key);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe(`"trial";q=1;w=3600`);
      for (const name of ["ratelimit", "x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after"]) expect(res.headers.get(name), name).toBeNull();
    }
  });

  it("a refused request consumes nothing: the rule that admitted it keeps its remaining", async () => {
    const { keys } = await fixture([
      { name: "wide", algorithm: "sliding_log", limit: 10, windowMs: HOUR_MS },
      { name: "narrow", algorithm: "token_bucket", limit: 1, windowMs: HOUR_MS, match: { path: "/api/v1/echo/narrow" } },
    ]);
    const key = keys[0]!.key;
    const first = await echo(key, "/api/v1/echo/narrow");
    expect(first.status).toBe(200);
    expect(remainingOf(first, "wide")).toBe(9);
    expect(remainingOf(first, "narrow")).toBe(0);
    for (let i = 0; i < 5; i++) {
      const refused = await echo(key, "/api/v1/echo/narrow");
      expectQuotaExceeded(refused, ["narrow"]);
      expect(refused.headers.get("ratelimit-policy")).toBe(`"wide";q=10;w=3600, "narrow";q=1;w=3600`);
    }
    const other = await echo(key, "/api/v1/echo/other");
    expect(other.status).toBe(200);
    expect(other.headers.get("ratelimit-policy")).toBe(`"wide";q=10;w=3600`);
    expect(other.headers.get("x-ratelimit-remaining")).toBe("8");
  });

  it("accepts the key in x-api-key", async () => {
    const { tenantId, keys } = await fixture([{ name: "per-key", algorithm: "fixed_window", limit: 50, windowMs: HOUR_MS }]);
    const res = await apiCall(server.url, "/api/v1/echo/x", { headers: { "x-api-key": keys[0]!.key } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, tenantId, keyId: keys[0]!.id, method: "GET", path: "/api/v1/echo/x" });
    expect(policyQuota(res, "per-key")).toBe(50);
  });

  it("an unknown path under /api/v1 with a valid key is a 404 problem", async () => {
    const { keys } = await fixture([]);
    for (const method of ["GET", "POST", "DELETE"]) {
      expectProblem(await apiCall(server.url, "/api/v1/nothing/here", { key: keys[0]!.key, method }), 404, "Not Found");
    }
  });
});

describe("GET /api/metrics", () => {
  /** The value of one sample line, 0 when it is absent. */
  const sample = (text: string, line: string): number => {
    const found = text.split("\n").find((l) => l.startsWith(line + " "));
    return found ? Number(found.slice(line.length + 1)) : 0;
  };

  it("counts decisions by outcome and rule verdicts by rule name, in Prometheus text, without key or tenant labels", async () => {
    const { keys } = await fixture([{ name: "metered", algorithm: "fixed_window", limit: 2, windowMs: HOUR_MS }]);
    const scrape = async () => {
      const res = await fetch(`${server.url}/api/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      return res.text();
    };
    const before = await scrape();
    for (let i = 0; i < 3; i++) await echo(keys[0]!.key);
    const after = await scrape();
    const delta = (line: string) => sample(after, line) - sample(before, line);
    expect(delta('sluice_decisions_total{outcome="allowed"}')).toBeGreaterThanOrEqual(2);
    expect(delta('sluice_decisions_total{outcome="refused"}')).toBeGreaterThanOrEqual(1);
    expect(delta('sluice_rule_results_total{rule="metered",result="allowed"}')).toBe(2);
    expect(delta('sluice_rule_results_total{rule="metered",result="refused"}')).toBe(1);
    expect(after).toMatch(/^sluice_decide_duration_seconds_count \d+$/m);
    expect(after).not.toContain(keys[0]!.id);
  });
});

describe("POST /api/v1/check", () => {
  let key: CreatedKey;
  let otherKey: CreatedKey;
  let limitedKey: CreatedKey;
  const check = (body: unknown, k: CreatedKey = key) => apiCall(server.url, "/api/v1/check", { method: "POST", key: k.key, body });

  beforeAll(async () => {
    const made = await fixture(
      [
        { name: "per-user", scope: "identifier", algorithm: "sliding_log", limit: 2, windowMs: HOUR_MS },
        { name: "per-key", scope: "key", algorithm: "sliding_log", limit: 1000, windowMs: HOUR_MS, match: { path: "/api/v1/echo/**" } },
      ],
      3,
    );
    [key, otherKey, limitedKey] = [made.keys[0]!, made.keys[1]!, made.keys[2]!];
    // The call itself is subject to the key's own rules: this key may call it twice.
    await admin.putKeyRules(limitedKey.id, [{ name: "check-calls", algorithm: "sliding_log", limit: 2, windowMs: HOUR_MS, match: { methods: ["POST"], path: "/api/v1/check" } }]);
  });

  it("charges the identifier (not the key) and answers 200 whether allowed or not", async () => {
    const first = await check({ identifier: "user-1", rule: "per-user" });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ allowed: true, limit: 2, remaining: 1, resetMs: expect.any(Number), retryAfterMs: 0, rule: "per-user" });
    expect((first.body as { resetMs: number }).resetMs).toBeGreaterThan(0);
    expect((await check({ identifier: "user-1", rule: "per-user" })).body).toMatchObject({ allowed: true, remaining: 0 });

    const refused = await check({ identifier: "user-1", rule: "per-user" });
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({ allowed: false, limit: 2, remaining: 0, resetMs: expect.any(Number), retryAfterMs: expect.any(Number), rule: "per-user" });
    expect((refused.body as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);

    // The counter is the identifier's, whichever key asks; another identifier has its own.
    expect((await check({ identifier: "user-1", rule: "per-user" }, otherKey)).body).toMatchObject({ allowed: false, remaining: 0 });
    expect((await check({ identifier: "user-2", rule: "per-user" }, otherKey)).body).toMatchObject({ allowed: true, remaining: 1 });
    expect((await check({ identifier: "user-3", rule: "per-user", cost: 2 })).body).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("an unknown rule, or a rule of another scope, is 404", async () => {
    expectProblem(await check({ identifier: "u", rule: "no-such-rule" }), 404, "Not Found");
    expectProblem(await check({ identifier: "u", rule: "per-key" }), 404, "Not Found");
  });

  it.each([
    ["no identifier", { rule: "per-user" }, "identifier"],
    ["empty identifier", { identifier: "", rule: "per-user" }, "identifier"],
    ["identifier over 256 characters", { identifier: "x".repeat(257), rule: "per-user" }, "identifier"],
    ["no rule", { identifier: "u" }, "rule"],
    ["fractional cost", { identifier: "u", rule: "per-user", cost: 1.5 }, "cost"],
    ["negative cost", { identifier: "u", rule: "per-user", cost: -1 }, "cost"],
    ["unknown field", { identifier: "u", rule: "per-user", extra: 1 }, ""],
  ])("an invalid body (%s) is 422 naming the field", async (_, body, field) => {
    const res = await check(body);
    expectProblem(res, 422, "Unprocessable Content");
    expect(Object.keys((res.body as { errors: Record<string, string[]> }).errors)).toContain(field);
  });

  it("the call is itself limited by the key's matching rules: 429 when they refuse, and the identifier is not charged", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await check({ identifier: "user-4", rule: "per-user" }, limitedKey);
      expect(res.status).toBe(200);
      expect(policyQuota(res, "check-calls")).toBe(2);
    }
    const refused = await check({ identifier: "user-4", rule: "per-user" }, limitedKey);
    expectQuotaExceeded(refused, ["check-calls"]);
    // user-4 was charged twice (limit 2); the refused call never reached the decision service.
    expect((await check({ identifier: "user-4", rule: "per-user" })).body).toMatchObject({ allowed: false, remaining: 0 });
    expect((await check({ identifier: "user-5", rule: "per-user" }, key)).status).toBe(200);
  });
});

describe("client IP of ip-scope rules", () => {
  const ipRule: RuleInput = { name: "per-ip", scope: "ip", algorithm: "sliding_log", limit: 2, windowMs: HOUR_MS };

  it("without SLUICE_TRUST_PROXY a client-sent X-Forwarded-For does not change the counter", async () => {
    const { keys } = await fixture([ipRule]);
    const from = (ip: string) => apiCall(server.url, "/api/v1/echo", { key: keys[0]!.key, headers: { "x-forwarded-for": ip } });
    expect((await from("10.0.0.1")).headers.get("x-ratelimit-remaining")).toBe("1");
    expect((await from("10.0.0.2")).headers.get("x-ratelimit-remaining")).toBe("0");
    expectQuotaExceeded(await from("10.0.0.3"), ["per-ip"]);
    expectQuotaExceeded(await from("10.0.0.4, 10.0.0.5"), ["per-ip"]);
  });

  describe("with SLUICE_TRUST_PROXY=1", () => {
    const proxied = sluiceEnv("http-enforce-proxy", { SLUICE_TRUST_PROXY: "1" });
    let proxyServer: SluiceServer;

    beforeAll(async () => {
      proxyServer = await startSluice({ env: proxied.env });
    });

    afterAll(async () => {
      await proxyServer?.stop();
      await cleanupRedis(proxied.prefix);
    });

    it("the address the proxy appended to X-Forwarded-For is the client", async () => {
      const { keys } = await fixture([ipRule], 1, adminClient(proxyServer.url, proxied.adminToken));
      const from = (ip: string) => apiCall(proxyServer.url, "/api/v1/echo", { key: keys[0]!.key, headers: { "x-forwarded-for": ip } });
      expect((await from("10.0.0.1")).headers.get("x-ratelimit-remaining")).toBe("1");
      expect((await from("10.0.0.1")).headers.get("x-ratelimit-remaining")).toBe("0");
      expectQuotaExceeded(await from("10.0.0.1"), ["per-ip"]);
      // A client cannot pick the entry: only the right-most one (the proxy's view) counts.
      expectQuotaExceeded(await from("10.0.0.9, 10.0.0.1"), ["per-ip"]);
      expect((await from("10.0.0.2")).status).toBe(200);
      expect((await from("10.0.0.1, 10.0.0.3")).headers.get("x-ratelimit-remaining")).toBe("1");
    });
  });
});

describe("requests without a valid key", () => {
  it(`get 401 with WWW-Authenticate, limited to ${ANON_LIMIT} per minute per client IP (then 429)`, async () => {
    const { keys } = await fixture([]);
    const revoked = keys[0]!;
    expect((await echo(revoked.key)).status).toBe(200);
    await admin.revokeKey(revoked.id);
    // The anonymous limit is a sliding window aligned to the minute: run inside one minute.
    await awayFromWindowEdge(60_000, 15_000);

    const attempts: [string, Record<string, string>][] = [
      ["missing", {}],
      ["malformed", { authorization: "Basic dXNlcjpwYXNz" }],
      ["unknown", { authorization: `Bearer sluice_AAAAAAAA_${"A".repeat(22)}` }],
      ["revoked", { authorization: `Bearer ${revoked.key}` }],
      ["unknown x-api-key", { "x-api-key": "sluice_nope" }],
    ];
    expect(attempts).toHaveLength(ANON_LIMIT);
    for (const [i, [what, headers]] of attempts.entries()) {
      const res = await apiCall(server.url, "/api/v1/echo", { headers });
      expectProblem(res, 401, "Unauthorized");
      expect(res.headers.get("www-authenticate"), what).toMatch(/^Bearer realm="sluice"/);
      expect(res.headers.get("x-ratelimit-remaining"), what).toBe(String(ANON_LIMIT - 1 - i));
    }
    const limited = await apiCall(server.url, "/api/v1/echo", { headers: { authorization: `Bearer ${revoked.key}` } });
    expectQuotaExceeded(limited, ["anonymous"]);
    expect(limited.headers.get("www-authenticate")).toBeNull();
  });
});
