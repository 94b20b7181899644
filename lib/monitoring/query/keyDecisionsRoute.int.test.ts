/**
 * GET /api/admin/keys/{keyId}/decisions, a key's recent decisions, called as a route handler (no
 * server) against the test database and the shared Redis under this file's own prefix, after real
 * traffic through the /api/v1/echo handler (test/support/monitoringRoutesBed.ts): 200 shapes and
 * order, 422 on bad parameters, 404 on unknown keys, 405 on other methods. 401 without credentials:
 * monitoringRoutes.int.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { monitoringRoutesBed, type SeededKey } from "@/test/support/monitoringRoutesBed";

const bed = await monitoringRoutesBed("keydecisions");
const { key, keyDecisions: decisions } = bed.routes;
const { admin } = bed;
let key1: SeededKey;
let key2: SeededKey;
beforeAll(() => ({ key1, key2 } = bed.seeded()));

describe("GET /api/admin/keys/{keyId}/decisions", () => {
  const path = (keyId: string, query = "") => `/api/admin/keys/${keyId}/decisions${query}`;

  it("200: the key's decisions newest first: method, path without query, verdict, shadow rules, remaining", async () => {
    const res = await admin(decisions, { path: path(key1.id), params: { keyId: key1.id } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["decisions"]);
    const list = res.body.decisions;
    expect(list).toHaveLength(6);
    expect(list[0]).toEqual({
      atMs: expect.any(Number),
      method: "POST",
      path: "/api/v1/echo/a/b",
      allowed: false,
      unavailable: false,
      shadowRefused: ["trial"],
      refusedBy: "per-key",
      remaining: 0,
    });
    expect(list[5]).toEqual({
      atMs: expect.any(Number),
      method: "GET",
      path: "/api/v1/echo",
      allowed: true,
      unavailable: false,
      shadowRefused: [],
      refusedBy: null,
      remaining: 2,
      status: 200,
    });
    expect(list.map((d: { allowed: boolean }) => d.allowed)).toEqual([false, false, false, true, true, true]);
    expect(list[4]).toMatchObject({ allowed: true, shadowRefused: ["trial"], remaining: 1 });
    const times = list.map((d: { atMs: number }) => d.atMs);
    expect(times).toEqual([...times].sort((x: number, y: number) => y - x));
  });

  it("?limit= caps the list; out of range or unknown parameters are 422", async () => {
    const two = await admin(decisions, { path: path(key1.id, "?limit=2"), params: { keyId: key1.id } });
    expect(two.status).toBe(200);
    expect(two.body.decisions).toHaveLength(2);
    for (const [query, field] of [
      ["?limit=0", "limit"],
      ["?limit=51", "limit"],
      ["?limit=abc", "limit"],
      ["?range=1h", "range"],
    ]) {
      const res = await admin(decisions, { path: path(key1.id, query), params: { keyId: key1.id } });
      expect(res.status, query).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
  });

  it("404 for an unknown or malformed key id; a revoked key keeps its decisions", async () => {
    for (const keyId of ["ZZZZZZZZ", "not-an-id"]) {
      const res = await admin(decisions, { path: path(keyId), params: { keyId } });
      expect(res.status, keyId).toBe(404);
    }
    const revoked = await admin(key, { method: "DELETE", params: { keyId: key2.id } });
    expect(revoked.status).toBe(204);
    const res = await admin(decisions, { path: path(key2.id), params: { keyId: key2.id } });
    expect(res.status).toBe(200);
    expect(res.body.decisions).toHaveLength(1);
  });

  it("405 for other methods", async () => {
    const res = await admin(decisions, { method: "POST", path: path(key1.id), params: { keyId: key1.id } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });
});
