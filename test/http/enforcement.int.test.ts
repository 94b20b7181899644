/**
 * Enforcement over HTTP, against one built server (`npm run build` first): what a client of /api/v1
 * sees, exactly as ../shared/CONTRACT.md states it: each algorithm's headers and 429, rule matching,
 * key overrides, shadow rules, refusals that consume nothing, and the Prometheus counters of those
 * decisions. Every tenant, key and rule is created through the admin API; each test gets its own
 * tenant. The decision API is in decisionApi.int.test.ts, who the client is (IP, no key) in
 * clientIdentity.int.test.ts.
 */
import { describe, expect, it } from "vitest";
import { ALGORITHMS } from "@/lib/limiter/types";
import { apiCall } from "@/test/support/adminClient";
import {
  enforcementBed,
  expectNoRateLimitHeaders,
  expectProblem,
  expectQuotaExceeded,
  HOUR_MS,
  policyQuota,
  remainingOf,
} from "@/test/support/enforcementBed";
import { awayFromWindowEdge } from "@/test/support/sluiceEnv";

const bed = enforcementBed("http-enforce");
const { fixture, echo } = bed;

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
      // t and X-RateLimit-Reset: when one more unit is left. A sliding window gives a unit back
      // only as this window's count decays through the next one, so up to two windows ahead.
      const windows = algorithm === "sliding_window" ? 2 : 1;
      expect(Number(rl![3])).toBeLessThanOrEqual(windows * 3600);
      expect(res.headers.get("x-ratelimit-limit")).toBe(String(limit));
      expect(res.headers.get("x-ratelimit-remaining")).toBe(String(limit - i));
      const reset = Number(res.headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(Math.floor(before / 1000));
      expect(reset).toBeLessThanOrEqual(Math.ceil((Date.now() + windows * HOUR_MS) / 1000) + 1);
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
    const { keys } = await fixture([
      { name: "costly", algorithm: "sliding_log", limit: 10, windowMs: HOUR_MS, cost: 5 },
    ]);
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
      {
        name: "post-one",
        algorithm: "sliding_log",
        limit: 1,
        windowMs: HOUR_MS,
        match: { methods: ["POST"], path: "/api/v1/echo/*" },
      },
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
    const { keys } = await fixture([
      { name: "only-x", algorithm: "sliding_log", limit: 2, windowMs: HOUR_MS, match: { path: "/api/v1/echo/x" } },
    ]);
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
    await bed.admin.putKeyRules(overridden.id, [
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

    const { keys: shadowOnly } = await fixture([
      { name: "trial", algorithm: "gcra", limit: 1, windowMs: HOUR_MS, mode: "shadow" },
    ]);
    for (let i = 0; i < 3; i++) {
      const res = await echo(shadowOnly[0]!.key);
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBe(`"trial";q=1;w=3600`);
      for (const name of [
        "ratelimit",
        "x-ratelimit-limit",
        "x-ratelimit-remaining",
        "x-ratelimit-reset",
        "retry-after",
      ])
        expect(res.headers.get(name), name).toBeNull();
    }
  });

  it("a refused request consumes nothing: the rule that admitted it keeps its remaining", async () => {
    const { keys } = await fixture([
      { name: "wide", algorithm: "sliding_log", limit: 10, windowMs: HOUR_MS },
      {
        name: "narrow",
        algorithm: "token_bucket",
        limit: 1,
        windowMs: HOUR_MS,
        match: { path: "/api/v1/echo/narrow" },
      },
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
    const { tenantId, keys } = await fixture([
      { name: "per-key", algorithm: "fixed_window", limit: 50, windowMs: HOUR_MS },
    ]);
    const res = await apiCall(bed.url, "/api/v1/echo/x", { headers: { "x-api-key": keys[0]!.key } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, tenantId, keyId: keys[0]!.id, method: "GET", path: "/api/v1/echo/x" });
    expect(policyQuota(res, "per-key")).toBe(50);
  });

  it("an unknown path under /api/v1 with a valid key is a 404 problem", async () => {
    const { keys } = await fixture([]);
    for (const method of ["GET", "POST", "DELETE"]) {
      expectProblem(await apiCall(bed.url, "/api/v1/nothing/here", { key: keys[0]!.key, method }), 404, "Not Found");
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
      const res = await fetch(`${bed.url}/api/metrics`);
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
