/**
 * The authorization matrix: every route method under app/api (routeTable.ts, checked against the
 * files at test time) called by every kind of caller (callers.ts), asserting the exact status
 * and, for every refusal, a problem+json body with that status (callRoute checks both). Route
 * handlers are called directly (no server) against the test database and this file's own Redis
 * prefix; everything created is deleted afterwards (securityFixtures.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute, ORIGIN } from "@/test/support/routeCall";
import { CALLERS, expectedStatus, headersOf, type Credentials } from "./callers";
import { createFixture, securityEnv, type Fixture } from "./securityFixtures";

const sec = securityEnv("authz");
// Loaded after the environment is set: config() reads it once, on first use.
const { routeInventory } = await import("./routeInventory");
const inventory = await routeInventory();
let fx: Fixture;
let who: Credentials;

beforeAll(async () => {
  fx = await createFixture(sec);
  who = { viewerId: (await sec.newOperator("viewer")).id, adminId: (await sec.newOperator("admin")).id };
});

afterAll(() => sec.cleanup());

describe("the route table", () => {
  it("lists every route file under app/api and every method each exports, and nothing else", () => {
    expect(inventory.problems).toEqual([]);
    expect(inventory.methods.length).toBeGreaterThan(90);
  });
});

describe.each(inventory.methods.map((m) => [`${m.method} /${m.route}`, m] as const))(
  "%s",
  (_name, { route, method, spec, handler }) => {
    it.each(CALLERS)("%s", async (caller) => {
      const prepared = spec.kind === "not_allowed" ? { status: 405 } : await spec.ok(fx);
      const headers = await headersOf(caller, fx, who, { fresh: spec.kind === "logout" });
      const path =
        "/" +
        route.replace(/\[(\w+)\]/g, (_m, name: string) => ("params" in prepared && prepared.params?.[name]) || "x") +
        (("query" in prepared && prepared.query) || "");
      const res = await callRoute(handler, {
        method,
        path,
        params: "params" in prepared ? prepared.params : {},
        body: "body" in prepared ? prepared.body : undefined,
        headers: { "x-forwarded-for": sec.freshIp(), ...headers },
      });
      const want = expectedStatus(spec, method, caller, prepared.status);
      expect(res.status, JSON.stringify(res.body)).toBe(want);
      if (want === 405) expect(res.headers.get("allow")).toBeTruthy();
      if (want === 401 && spec.kind !== "me" && spec.kind !== "login")
        expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
      if (res.status < 300 && "created" in prepared && prepared.created) prepared.created(res.body);
    });
  },
);

describe("what the statuses mean", () => {
  const tenants = () => inventory.methods.find((m) => m.route === "api/admin/tenants" && m.method === "POST")!.handler;

  it("a viewer's change is refused for its role, a cross-origin change as CSRF, before anything is stored", async () => {
    const db = (await import("@/lib/db/client")).getDb();
    const before = await db.tenant.count();
    const viewer = await callRoute(tenants(), {
      method: "POST",
      body: { name: "viewer-made" },
      headers: await headersOf("viewer session", fx, who),
    });
    expect(viewer.status).toBe(403);
    expect(viewer.body.detail).toMatch(/viewer/);
    const csrf = await callRoute(tenants(), {
      method: "POST",
      body: { name: "csrf-made" },
      headers: await headersOf("admin session, cross-origin (CSRF)", fx, who),
    });
    expect(csrf.status).toBe(403);
    expect(csrf.body.detail).toMatch(/Cross-origin/);
    expect(await db.tenant.count()).toBe(before);
  });

  it("logout ends the session: the same cookie is then refused", async () => {
    const logout = inventory.methods.find((m) => m.route === "api/auth/logout" && m.method === "POST")!.handler;
    const me = inventory.methods.find((m) => m.route === "api/auth/me" && m.method === "GET")!.handler;
    const cookie = await sec.sessionCookie(who.viewerId);
    expect((await callRoute(me, { headers: { cookie } })).status).toBe(200);
    expect((await callRoute(logout, { method: "POST", headers: { cookie, origin: ORIGIN } })).status).toBe(204);
    expect((await callRoute(me, { headers: { cookie } })).status).toBe(401);
  });
});
