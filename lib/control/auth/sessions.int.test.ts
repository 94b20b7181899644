/**
 * Operator sessions end to end through the route handlers (called directly, no server), against
 * the test database and the shared Redis under this file's own prefix: login and its cookie,
 * /me, logout, expiry, roles and CSRF on the admin API, and the login limit.
 * Creates its own operators (unique emails) and tenants, and deletes exactly those (sessions
 * cascade) with their audit events, and its Redis prefix.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { callRoute, ORIGIN, sessionCookieOf, type RouteAnswer } from "@/test/support/routeCall";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { loadRoutes, routeTestEnv } from "@/test/support/routeTestEnv";

const PASSWORD = "correct horse battery staple";
const { token: TOKEN, close } = routeTestEnv("auth");
// Loaded after the environment is set: config() reads it once, on first use.
const { login, logout, me, tenants } = await loadRoutes("login", "logout", "me", "tenants");
const db = await import("@/lib/db/client");
const { hashPassword } = await import("./passwordHash");
const operatorIds: string[] = [];
const tenantIds: string[] = [];
let ipCounter = 0;

afterAll(async () => {
  const prisma = db.getDb();
  await prisma.auditEvent.deleteMany({ where: { target: { in: operatorIds.map((id) => `operator:${id}`) } } });
  await prisma.operator.deleteMany({ where: { id: { in: operatorIds } } });
  await deleteTenants(TEST_DATABASE_URL, tenantIds);
  await close();
});

/** A fresh client address per scenario, so login-limit counters never leak between tests. */
const freshIp = () => `198.51.100.${++ipCounter}`;

async function newOperator(role: "admin" | "viewer", password = PASSWORD): Promise<{ id: string; email: string }> {
  const email = `auth-${role}-${randomBytes(5).toString("hex")}@example.com`;
  const row = await db.getDb().operator.create({ data: { email, passwordHash: await hashPassword(password), role } });
  operatorIds.push(row.id);
  return { id: row.id, email };
}

function logIn(email: string, password: string, options: { ip?: string; headers?: Record<string, string>; url?: string } = {}): Promise<RouteAnswer> {
  return callRoute(login.POST, {
    method: "POST",
    path: "/api/auth/login",
    body: { email, password },
    headers: { "x-forwarded-for": options.ip ?? freshIp(), origin: ORIGIN, ...options.headers },
  });
}

async function sessionOf(role: "admin" | "viewer"): Promise<{ email: string; cookie: string; id: string }> {
  const operator = await newOperator(role);
  const res = await logIn(operator.email, PASSWORD);
  expect(res.status).toBe(200);
  return { ...operator, cookie: sessionCookieOf(res) };
}

const tokenOf = (cookie: string) => cookie.slice(cookie.indexOf("=") + 1);
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

describe("POST /api/auth/login", () => {
  it("200 with { email, role } and an HttpOnly, SameSite=Lax, Path=/ cookie for 12 h; only the token's hash is stored", async () => {
    const operator = await newOperator("admin");
    const res = await logIn(operator.email, PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email: operator.email, role: "admin" });
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
      new Request("https://sluice.test/api/auth/login", { method: "POST", headers: { "x-forwarded-for": freshIp() }, body: JSON.stringify({ email: operator.email, password: PASSWORD }) }),
      { params: Promise.resolve({}) },
    );
    expect(overHttps.status).toBe(200);
    expect(overHttps.headers.get("set-cookie")).toMatch(/^__Host-sluice_session=[A-Za-z0-9_-]{43}; Path=\/; .*; Secure$/);
    // That cookie is the session over HTTPS; a plain `sluice_session` (a sibling subdomain could plant one) is not.
    const token = /^__Host-sluice_session=([^;]+)/.exec(overHttps.headers.get("set-cookie")!)![1]!;
    const meOver = (cookie: string) => me.GET!(new Request("https://sluice.test/api/auth/me", { headers: { cookie } }), { params: Promise.resolve({}) });
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
    const raw = await login.POST!(new Request(`${ORIGIN}/api/auth/login`, { method: "POST", body: "{nope" }), { params: Promise.resolve({}) });
    expect(raw.status).toBe(400);
    expect((await callRoute(login.GET, { path: "/api/auth/login" })).status).toBe(405);
  });

  it("403 for a login from another origin (login CSRF), without checking the password", async () => {
    const operator = await newOperator("admin");
    const res = await logIn(operator.email, PASSWORD, { headers: { origin: "http://evil.test" } });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await db.getDb().session.count({ where: { operatorId: operator.id } })).toBe(0);
    const scripted = await callRoute(login.POST, { method: "POST", path: "/api/auth/login", body: { email: operator.email, password: PASSWORD }, headers: { "x-forwarded-for": freshIp() } });
    expect(scripted.status).toBe(200);
  });
});

describe("GET /api/auth/me and POST /api/auth/logout", () => {
  it("/me answers the session's operator; 401 without a cookie or with an unknown one", async () => {
    const session = await sessionOf("viewer");
    const mine = await callRoute(me.GET, { path: "/api/auth/me", headers: { cookie: session.cookie } });
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ email: session.email, role: "viewer" });
    expect((await callRoute(me.GET, { path: "/api/auth/me" })).status).toBe(401);
    expect((await callRoute(me.GET, { path: "/api/auth/me", headers: { cookie: `sluice_session=${randomBytes(32).toString("base64url")}` } })).status).toBe(401);
  });

  it("logout deletes the session and clears the cookie; the old cookie then gets 401 everywhere", async () => {
    const session = await sessionOf("admin");
    const out = await callRoute(logout.POST, { method: "POST", path: "/api/auth/logout", headers: { cookie: session.cookie, origin: ORIGIN } });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toMatch(/^sluice_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/);
    expect(await db.getDb().session.count({ where: { tokenHash: sha256(tokenOf(session.cookie)) } })).toBe(0);
    expect((await callRoute(me.GET, { path: "/api/auth/me", headers: { cookie: session.cookie } })).status).toBe(401);
    expect((await callRoute(tenants.GET, { path: "/api/admin/tenants", headers: { cookie: session.cookie } })).status).toBe(401);
  });

  it("logout without a session still clears the cookie; logout from another origin is refused and ends nothing", async () => {
    expect((await callRoute(logout.POST, { method: "POST", path: "/api/auth/logout" })).status).toBe(204);
    const session = await sessionOf("admin");
    const forged = await callRoute(logout.POST, { method: "POST", path: "/api/auth/logout", headers: { cookie: session.cookie, origin: "http://evil.test" } });
    expect(forged.status).toBe(403);
    expect((await callRoute(me.GET, { path: "/api/auth/me", headers: { cookie: session.cookie } })).status).toBe(200);
  });

  it("an expired session is refused and deleted", async () => {
    const session = await sessionOf("admin");
    const tokenHash = sha256(tokenOf(session.cookie));
    await db.getDb().session.update({ where: { tokenHash }, data: { createdAt: new Date(Date.now() - 13 * 3_600_000), expiresAt: new Date(Date.now() - 1000) } });
    expect((await callRoute(me.GET, { path: "/api/auth/me", headers: { cookie: session.cookie } })).status).toBe(401);
    expect(await db.getDb().session.count({ where: { tokenHash } })).toBe(0);
    expect((await callRoute(tenants.GET, { path: "/api/admin/tenants", headers: { cookie: session.cookie } })).status).toBe(401);
  });
});

describe("the admin API with a session cookie", () => {
  const createTenant = (headers: Record<string, string>) =>
    callRoute(tenants.POST, { method: "POST", path: "/api/admin/tenants", body: { name: `auth-test-${randomBytes(5).toString("hex")}` }, headers });
  const remember = (res: RouteAnswer) => {
    if (res.status === 201) tenantIds.push(res.body.id);
    return res;
  };

  it("an admin session writes, audited as operator:<email>", async () => {
    const session = await sessionOf("admin");
    const res = remember(await createTenant({ cookie: session.cookie, origin: ORIGIN }));
    expect(res.status).toBe(201);
    const event = await db.getDb().auditEvent.findFirstOrThrow({ where: { tenantId: res.body.id } });
    expect(event.actor).toBe(`operator:${session.email}`);
  });

  it("a viewer session reads (200) and gets 403 on a write, which changes nothing", async () => {
    const session = await sessionOf("viewer");
    expect((await callRoute(tenants.GET, { path: "/api/admin/tenants", headers: { cookie: session.cookie } })).status).toBe(200);
    const before = await db.getDb().tenant.count();
    const res = remember(await createTenant({ cookie: session.cookie, origin: ORIGIN }));
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/viewer/);
    expect(await db.getDb().tenant.count()).toBe(before);
  });

  it("a demotion takes effect on the next request of a live session", async () => {
    const session = await sessionOf("admin");
    await db.getDb().operator.update({ where: { id: session.id }, data: { role: "viewer" } });
    expect(remember(await createTenant({ cookie: session.cookie, origin: ORIGIN })).status).toBe(403);
  });

  it.each([
    ["no Origin or Referer", {}],
    ["another Origin", { origin: "http://evil.test" }],
    ["a sibling origin", { origin: "http://admin.sluice.test" }],
    ["Origin: null", { origin: "null" }],
    ["a cross-origin Referer", { referer: "http://evil.test/form" }],
  ])("CSRF: a cookie-carried write with %s is 403 and changes nothing", async (_, headers) => {
    const session = await sessionOf("admin");
    const res = remember(await createTenant({ cookie: session.cookie, ...headers }));
    expect(res.status).toBe(403);
    expect(res.body.title).toBe("Forbidden");
    expect(res.body.detail).toMatch(/Origin|origin/);
  });

  it("CSRF: a same-origin Referer suffices; bearer-token writes need neither header", async () => {
    const session = await sessionOf("admin");
    expect(remember(await createTenant({ cookie: session.cookie, referer: `${ORIGIN}/tenants` })).status).toBe(201);
    expect(remember(await createTenant({ authorization: `Bearer ${TOKEN}` })).status).toBe(201);
    expect(remember(await createTenant({ authorization: `Bearer ${TOKEN}`, origin: "http://evil.test" })).status).toBe(201);
  });

  it("a wrong bearer token is 401 even with a valid cookie (the token is checked first)", async () => {
    const session = await sessionOf("admin");
    expect(remember(await createTenant({ cookie: session.cookie, origin: ORIGIN, authorization: "Bearer wrong" })).status).toBe(401);
  });
});

describe("login limit (per IP, per email and IP, per email; failures only)", () => {
  it("5 wrong passwords for an email from one address, then 429 there with Retry-After and when to retry, even with the right password; another address gets in", async () => {
    const operator = await newOperator("admin");
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await logIn(operator.email, `wrong password ${i}`, { ip })).status).toBe(401);
    const refused = await logIn(operator.email, PASSWORD, { ip });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    // sliding_window: failures late in one 15-min window still weigh fully at the start of the
    // next, so the wait can reach the rest of this window plus 1/5 of the next: at most 1080 s.
    expect(retryAfter).toBeLessThanOrEqual(900 + 900 / 5);
    expect(refused.body.detail).toMatch(new RegExp(`Try again in ${retryAfter} s \\(at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)`));
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect(await db.getDb().session.count({ where: { operatorId: operator.id } })).toBe(0);
    // Knowing the email is not enough to lock the operator out: from an address without failures, the right password works.
    expect((await logIn(operator.email, PASSWORD, { ip: freshIp() })).status).toBe(200);
  });

  it("50 failures for an email spread over 10 addresses reach its ceiling: an address that failed is refused, one without failures still gets in", async () => {
    const operator = await newOperator("viewer");
    const guessers = Array.from({ length: 10 }, () => freshIp());
    for (const ip of guessers) for (let i = 0; i < 5; i++) expect((await logIn(operator.email, `guess ${i}`, { ip })).status).toBe(401);
    const once = freshIp();
    expect((await logIn(operator.email, "one more guess", { ip: once })).status).toBe(401);
    expect((await logIn(operator.email, PASSWORD, { ip: once })).status).toBe(429);
    expect((await logIn(operator.email, PASSWORD, { ip: freshIp() })).status).toBe(200);
  });

  it("10 failures from one IP (any emails), then 429 from that IP only", async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++) expect((await logIn(`nobody-${i}-${randomBytes(3).toString("hex")}@example.com`, "wrong password", { ip })).status).toBe(401);
    const operator = await newOperator("viewer");
    expect((await logIn(operator.email, PASSWORD, { ip })).status).toBe(429);
    expect((await logIn(operator.email, PASSWORD, { ip: freshIp() })).status).toBe(200);
  });

  it("successful logins are not counted", async () => {
    const operator = await newOperator("viewer");
    const ip = freshIp();
    for (let i = 0; i < 12; i++) expect((await logIn(operator.email, PASSWORD, { ip })).status).toBe(200);
  });

  it("parallel guesses cannot overrun the limit: of 20 at once, exactly 5 are checked", async () => {
    const operator = await newOperator("admin");
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => logIn(operator.email, `parallel guess ${i}`, { ip })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });
});
