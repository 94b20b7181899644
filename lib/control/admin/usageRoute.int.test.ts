/**
 * GET /api/admin/tenants/{tenantId}/usage through the route handler (no server), against the test
 * database: the rows as JSON and as CSV (by Accept or format=csv), grouped, and the 422s and 404s.
 * The totals' agreement with the limiter: lib/monitoring/usage/usageRollup.int.test.ts.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { adminCaller, loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";

const { auth, close } = routeTestEnv("usage");
const { tenants, tenantUsage } = await loadRoutes("tenants", "tenantUsage");
const { getDb } = await import("@/lib/db/client");
const created: string[] = [];

afterAll(async () => {
  await getDb().usageHour.deleteMany({ where: { tenantId: { in: created } } });
  await deleteTenants(TEST_DATABASE_URL, created);
  await close();
});

const call = adminCaller(auth);
const usage = (tenantId: string, query: string, headers: Record<string, string> = {}) =>
  call(tenantUsage, "GET", `/tenants/${tenantId}/usage?${query}`, { tenantId }, undefined, { ...auth, ...headers });

async function tenantWithUsage(): Promise<string> {
  const res = await call(tenants, "POST", "/tenants", {}, { name: `usage-${randomBytes(4).toString("hex")}` });
  expect(res.status).toBe(201);
  const tenantId = res.body.id as string;
  created.push(tenantId);
  const at = (iso: string) => new Date(iso);
  await getDb().usageHour.createMany({
    data: [
      {
        tenantId,
        hour: at("2026-10-01T05:00:00Z"),
        caller: "KeyAaaa1",
        rule: "*",
        tier: "pro",
        admitted: 4n,
        refused: 1n,
        units: 4n,
      },
      {
        tenantId,
        hour: at("2026-10-01T06:00:00Z"),
        caller: "~alice",
        rule: "*",
        tier: "",
        admitted: 2n,
        refused: 0n,
        units: 2n,
      },
      {
        tenantId,
        hour: at("2026-10-02T00:00:00Z"),
        caller: "KeyAaaa1",
        rule: "*",
        tier: "pro",
        admitted: 1n,
        refused: 0n,
        units: 3n,
      },
      {
        tenantId,
        hour: at("2026-10-01T05:00:00Z"),
        caller: "KeyAaaa1",
        rule: "7",
        tier: "pro",
        admitted: 4n,
        refused: 1n,
        units: 4n,
      },
    ],
  });
  return tenantId;
}

describe("200", () => {
  it("answers rows per day, grouped by key (requests without a key have no key field)", async () => {
    const tenantId = await tenantWithUsage();
    const res = await usage(tenantId, "from=2026-10-01&to=2026-10-03&groupBy=key");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      rows: [
        { start: "2026-10-01T00:00:00.000Z", admitted: 2, refused: 0, units: 2 },
        { start: "2026-10-01T00:00:00.000Z", key: "KeyAaaa1", admitted: 4, refused: 1, units: 4 },
        { start: "2026-10-02T00:00:00.000Z", key: "KeyAaaa1", admitted: 1, refused: 0, units: 3 },
      ],
    });
    const byRule = await usage(tenantId, "from=2026-10-01&to=2026-10-03&groupBy=rule&granularity=hour");
    expect(byRule.body.rows).toEqual([
      { start: "2026-10-01T05:00:00.000Z", rule: "#7", admitted: 4, refused: 1, units: 4 },
    ]);
  });

  it("answers the same rows as CSV for Accept: text/csv or format=csv", async () => {
    const tenantId = await tenantWithUsage();
    const byAccept = await usage(tenantId, "from=2026-10-01&to=2026-11-01&groupBy=tier&granularity=day", {
      accept: "text/csv",
    });
    expect(byAccept.status).toBe(200);
    expect(byAccept.headers.get("content-type")).toMatch(/^text\/csv/);
    // Day rows: both of October's days hold tier "pro" rows; summed per day.
    expect(byAccept.body).toBe(
      "start,tier,admitted,refused,units\r\n2026-10-01T00:00:00.000Z,,2,0,2\r\n2026-10-01T00:00:00.000Z,pro,4,1,4\r\n2026-10-02T00:00:00.000Z,pro,1,0,3\r\n",
    );
    const byFormat = await usage(tenantId, "from=2026-10-01&to=2026-11-01&groupBy=tier&format=csv");
    expect(byFormat.body).toBe(byAccept.body);
  });
});

describe("422 and 404", () => {
  it("refuses a range over 400 days, from after to, bad enums and unknown parameters", async () => {
    const tenantId = await tenantWithUsage();
    for (const [query, field] of [
      ["from=2025-01-01&to=2026-11-01", "to"],
      ["from=2026-11-02&to=2026-11-01", "from"],
      ["granularity=week", "granularity"],
      ["groupBy=path", "groupBy"],
      ["color=red", ""],
    ] as const) {
      const res = await usage(tenantId, query);
      expect(res.status, query).toBe(422);
      expect(Object.keys(res.body.errors), query).toEqual([field]);
    }
  });

  it("is a 404 for an unknown tenant", async () => {
    expect((await usage("Zzzzzzz9", "")).status).toBe(404);
  });
});
