/**
 * Operator sessions end to end through the route handlers (called directly, no server;
 * test/support/sessionTestEnv.ts): login and its cookie, /me, logout and expiry. Roles and CSRF on
 * the admin API: sessionAdminApi.int.test.ts; the login limit: loginLimit.int.test.ts.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { callRoute, ORIGIN } from "@/test/support/routeCall";
import { PASSWORD, sha256, tokenOf, sessionTestEnv } from "@/test/support/sessionTestEnv";

const { db, freshIp, newOperator, logIn, sessionOf, routes, close } = await sessionTestEnv("auth");
const { login, logout, me, tenants } = routes;

afterAll(close);

describe("POST /api/auth/login", () => {
  it("200 with { email, role } and an HttpOnly, SameSite=Lax, Path=/ cookie for 12 h; only the token's hash is stored", async () => {
    const operator = await newOperator("admin");
    const res = await logIn(operator.email, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email: operator.email, role: "admin", tenantIds: [] });
    expect(res.headers.get("cache-control")).toBe("no-store");
    const setCookie = res.headers.get("set-cookie")!;
    const [pair, ...attributes] = setCookie.split(";").map((s) => s.trim());
    expect(pair).toMatch(/^sluice_session=[A-Za-z0-9_-]{43}$/);
    expect(attributes).toEqual(expect.arrayContaining(["HttpOnly", "SameSite=Lax", "Path=/"]));
    const maxAge = Number(attributes.find((a) => a.startsWith("Max-Age="))!.slice(8));
    expect(maxAge).toBeGreaterThan(43_200 - 5);
    expect(maxAge).toBeLessThanOrEqual(43_200);
    expect(attributes).not.toContain("Secure");
    const token = tokenOf(pair!);
    const rows = await db.getDb().session.findMany({ where: { operatorId: operator.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(sha256(token));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0]!.expiresAt.getTime() - rows[0]!.createdAt.getTime()).toBe(43_200_000);
  });

  it("the cookie is Secure when the request came over HTTPS, and X-Forwarded-Proto is ignored without trusted proxies", async () => {
    const operator = await newOperator("viewer");
    const overHttps = await login.POST!(
      new Request("https://sluice.test/api/auth/login", {
        method: "POST",
        headers: { "x-forwarded-for": freshIp() },
        body: JSON.stringify({ email: operator.email, password: PASSWORD }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(overHttps.status).toBe(200);
    expect(overHttps.headers.get("set-cookie")).toMatch(
      /^__Host-sluice_session=[A-Za-z0-9_-]{43}; Path=\/; .*; Secure$/,
    );
    // That cookie is the session over HTTPS; a plain `sluice_session` (a sibling subdomain could plant one) is not.
    const token = /^__Host-sluice_session=([^;]+)/.exec(overHttps.headers.get("set-cookie")!)![1]!;
    const meOver = (cookie: string) =>
      me.GET!(new Request("https://sluice.test/api/auth/me", { headers: { cookie } }), { params: Promise.resolve({}) });
    expect((await meOver(`__Host-sluice_session=${token}`)).status).toBe(200);
    expect((await meOver(`sluice_session=${token}`)).status).toBe(401);
    const spoofed = await logIn(operator.email, PASSWORD, { headers: { "x-forwarded-proto": "https" } });
    expect(spoofed.status).toBe(200);
    expect(spoofed.headers.get("set-cookie")).not.toContain("Secure");
  });

  it("takes the email in any case and with spaces around it", async () => {
    const operator = await newOperator("viewer");
    const res = await logIn(`  ${operator.email.toUpperCase()} `, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(operator.email);
  });

  it("401 with the same message for a wrong password and an unknown email, and no cookie", async () => {
    const operator = await newOperator("admin");
    const wrong = await logIn(operator.email, "not the password at all");
    const unknown = await logIn(`nobody-${randomBytes(4).toString("hex")}@example.com`, PASSWORD);
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.body.detail).toBe("Wrong email or password.");
    expect(await db.getDb().session.count({ where: { operatorId: operator.id } })).toBe(0);
  });

  it("an unknown email takes about as long as a wrong password (a dummy hash is verified)", async () => {
    const operator = await newOperator("admin");
    const fastest = async (email: string) => {
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const t0 = performance.now();
        expect((await logIn(email, "wrong password, timed")).status).toBe(401);
        best = Math.min(best, performance.now() - t0);
      }
      return best;
    };
    const known = await fastest(operator.email);
    const unknown = await fastest(`nobody-${randomBytes(4).toString("hex")}@example.com`);
    expect(unknown).toBeGreaterThan(known / 3);
  });

  it("422 per field for a malformed body, 400 for non-JSON, 405 for GET", async () => {
    const bad = await callRoute(login.POST, { method: "POST", path: "/api/auth/login", body: { email: "a@b.c" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.password).toContain("password is required and must be text");
    const raw = await login.POST!(new Request(`${ORIGIN}/api/auth/login`, { method: "POST", body: "{nope" }), {
      params: Promise.resolve({}),
    });
    expect(raw.status).toBe(400);
    expect((await callRoute(login.GET, { path: "/api/auth/login" })).status).toBe(405);
  });

  it("403 for a login from another origin (login CSRF), without checking the password", async () => {
    const operator = await newOperator("admin");
    const res = await logIn(operator.email, PASSWORD, { headers: { origin: "http://evil.test" } });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await db.getDb().session.count({ where: { operatorId: operator.id } })).toBe(0);
    const scripted = await callRoute(login.POST, {
      method: "POST",
      path: "/api/auth/login",
      body: { email: operator.email, password: PASSWORD },
      headers: { "x-forwarded-for": freshIp() },
    });
    expect(scripted.status).toBe(200);
  });
});

describe("GET /api/auth/me and POST /api/auth/logout", () => {
  it("/me answers the session's operator; 401 without a cookie or with an unknown one", async () => {
    const session = await sessionOf("viewer");
    const mine = await callRoute(me.GET, { path: "/api/auth/me", headers: { cookie: session.cookie } });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ email: session.email, role: "viewer", tenantIds: [] });
    expect((await callRoute(me.GET, { path: "/api/auth/me" })).status).toBe(401);
    expect(
      (
        await callRoute(me.GET, {
          path: "/api/auth/me",
          headers: { cookie: `sluice_session=${randomBytes(32).toString("base64url")}` },
        })
      ).status,
    ).toBe(401);
  });

  it("logout deletes the session and clears the cookie; the old cookie then gets 401 everywhere", async () => {
    const session = await sessionOf("admin");
    const out = await callRoute(logout.POST, {
      method: "POST",
      path: "/api/auth/logout",
      headers: { cookie: session.cookie, origin: ORIGIN },
    });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/^sluice_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/);
    expect(await db.getDb().session.count({ where: { tokenHash: sha256(tokenOf(session.cookie)) } })).toBe(0);
    expect((await callRoute(me.GET, { path: "/api/auth/me", headers: { cookie: session.cookie } })).status).toBe(401);
    expect(
      (await callRoute(tenants.GET, { path: "/api/admin/tenants", headers: { cookie: session.cookie } })).status,
    ).toBe(401);
  });

  it("logout without a session still clears the cookie; logout from another origin is refused and ends nothing", async () => {
    expect((await callRoute(logout.POST, { method: "POST", path: "/api/auth/logout" })).status).toBe(204);
    const session = await sessionOf("admin");
    const forged = await callRoute(logout.POST, {
      method: "POST",
      path: "/api/auth/logout",
      headers: { cookie: session.cookie, origin: "http://evil.test" },
    });
    expect(forged.status).toBe(403);
    expect((await callRoute(me.GET, { path: "/api/auth/me", headers: { cookie: session.cookie } })).status).toBe(200);
  });

  it("an expired session is refused and deleted", async () => {
    const session = await sessionOf("admin");
    const tokenHash = sha256(tokenOf(session.cookie));
    await db.getDb().session.update({
      where: { tokenHash },
      data: { createdAt: new Date(Date.now() - 13 * 3_600_000), expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await callRoute(me.GET, { path: "/api/auth/me", headers: { cookie: session.cookie } })).status).toBe(401);
    expect(await db.getDb().session.count({ where: { tokenHash } })).toBe(0);
    expect(
      (await callRoute(tenants.GET, { path: "/api/admin/tenants", headers: { cookie: session.cookie } })).status,
    ).toBe(401);
  });
});
