import { afterEach, describe, expect, it, vi } from "vitest";
import { ALGORITHMS } from "../../limiter/types";
import { ruleListSchema } from "../../policy/rules/ruleSchema";
import { DEMO_BEHAVIOURS, formatTally, startDemoTraffic } from "./demoTraffic";
import { DEMO_TENANTS } from "./demoTenants";
import { demoOperators } from "./seedDemo";

afterEach(() => {
  vi.useRealTimers();
});

describe("demo data", () => {
  it("every tenant's rules pass the admin API's schema, and the first tenant uses every algorithm", () => {
    for (const tenant of DEMO_TENANTS) expect(ruleListSchema.safeParse(tenant.rules).success).toBe(true);
    expect(new Set(DEMO_TENANTS[0].rules.map((r) => r.algorithm))).toEqual(new Set(ALGORITHMS));
  });

  it("every traffic client has a seeded key and an address of its own", () => {
    for (const b of DEMO_BEHAVIOURS) {
      const tenant = DEMO_TENANTS.find((t) => t.name === b.tenant);
      expect(tenant?.clients as readonly string[] | undefined, `${b.tenant}/${b.client}`).toContain(b.client);
    }
    expect(new Set(DEMO_BEHAVIOURS.map((b) => b.ip)).size).toBe(DEMO_BEHAVIOURS.length);
  });

  it("the demo admin login comes from SLUICE_ADMIN_EMAIL / SLUICE_ADMIN_PASSWORD when set", () => {
    expect(demoOperators({}).map((o) => [o.email, o.role])).toEqual([
      ["admin@sluice.demo", "admin"],
      ["viewer@sluice.demo", "viewer"],
    ]);
    expect(
      demoOperators({ SLUICE_ADMIN_EMAIL: "ops@example.com", SLUICE_ADMIN_PASSWORD: "a long password" })[0],
    ).toEqual({ email: "ops@example.com", password: "a long password", role: "admin" });
  });
});

describe("startDemoTraffic", () => {
  it("sends each client's burst on its schedule, with its key and its own forwarded address, and tallies statuses", async () => {
    vi.useFakeTimers();
    const calls: { url: string; init: RequestInit }[] = [];
    const fetchImpl = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response("{}", { status: calls.length % 2 === 0 ? 429 : 200 });
    }) as unknown as typeof fetch;
    const traffic = startDemoTraffic({
      baseUrl: "http://127.0.0.1:9",
      keyOf: (tenant, client) => `key-of-${client}`,
      fetchImpl,
      behaviours: [
        {
          tenant: "T",
          client: "a",
          ip: "10.9.0.1",
          everyMs: 1_000,
          burst: 2,
          request: () => ({ method: "GET", path: "/api/v1/echo" }),
        },
        {
          tenant: "T",
          client: "b",
          ip: "10.9.0.2",
          everyMs: 3_000,
          burst: 1,
          request: (i) => ({ method: "POST", path: "/api/v1/check", body: { rule: "r", identifier: `id-${i}` } }),
        },
      ],
    });
    await vi.advanceTimersByTimeAsync(3_000);
    traffic.stop();
    await vi.advanceTimersByTimeAsync(10_000);

    expect(calls).toHaveLength(3 * 2 + 1);
    const b = calls.filter((c) => (c.init.headers as Record<string, string>)["x-forwarded-for"] === "10.9.0.2");
    expect(b).toHaveLength(1);
    expect(b[0]!.url).toBe("http://127.0.0.1:9/api/v1/check");
    expect(b[0]!.init.headers).toMatchObject({ authorization: "Bearer key-of-b", "content-type": "application/json" });
    expect(JSON.parse(b[0]!.init.body as string)).toEqual({ rule: "r", identifier: "id-0" });
    const total = [...traffic.tally.values()].flatMap((m) => [...m.values()]).reduce((x, y) => x + y, 0);
    expect(total).toBe(7);
    expect(formatTally(traffic.tally)).toMatch(/^T\/a: (200|429)×\d/);
  });

  it("counts a network failure as status 0", async () => {
    vi.useFakeTimers();
    const traffic = startDemoTraffic({
      baseUrl: "http://127.0.0.1:9",
      keyOf: () => "k",
      fetchImpl: (async () => {
        throw new TypeError("fetch failed");
      }) as unknown as typeof fetch,
      behaviours: [
        {
          tenant: "T",
          client: "a",
          ip: "10.9.0.1",
          everyMs: 1_000,
          burst: 1,
          request: () => ({ method: "GET", path: "/" }),
        },
      ],
    });
    await vi.advanceTimersByTimeAsync(1_000);
    traffic.stop();
    expect(traffic.tally.get("T/a")).toEqual(new Map([[0, 1]]));
  });
});
