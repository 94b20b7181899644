/**
 * Property-based fuzzing of what anyone on the network can reach: /api/v1 (credentials in every
 * header shape, every method, odd and encoded paths, hostile client addresses and bodies; the
 * decision service's body) and POST /api/auth/login (hostile bodies and Origins). Seeded, so
 * every run is the same.
 *
 * Invariants: never a throw, never a 5xx, every 4xx problem+json (fuzzCall.ts); a request is
 * admitted only with the live key it presented (never a revoked key, a wrong secret or a
 * mangled credential); a login never succeeds without the password, and never sets a cookie
 * when refused.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute, ORIGIN } from "@/test/support/routeCall";
import { loadRoutes } from "@/test/support/routeTestEnv";
import { fuzzCall, runs, seedOf } from "./fuzzCall";
import { headerText, hostileBody, hostileText, toWellFormed } from "./hostileInput";
import { createFixture, securityEnv, type Fixture } from "./securityFixtures";

const sec = securityEnv("apifuzz");
// Loaded after the environment is set: config() reads it once, on first use.
const { echo, login } = await loadRoutes("echo", "login");
const catchAll = (await import("@/app/api/v1/[...path]/route")) as unknown as typeof echo;
const check = (await import("@/app/api/v1/check/route")) as unknown as typeof echo;
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
let fx: Fixture;
let revokedKey: string;

beforeAll(async () => {
  fx = await createFixture(sec);
  const revoked = await sec.newKey(fx.tenantId);
  const { key } = await loadRoutes("key");
  expect((await callRoute(key.DELETE, { method: "DELETE", params: { keyId: revoked.id }, headers: sec.env.auth })).status).toBe(204);
  revokedKey = revoked.key;
});

afterAll(() => sec.cleanup());

/** Path segments a client might send: hostile text percent-encoded, or raw odd forms. */
const segment = fc.oneof(
  { arbitrary: hostileText.map((s) => encodeURIComponent(toWellFormed(s))), weight: 3 },
  { arbitrary: fc.constantFrom("..", ".", "%2e%2e", "%2F", "%2f..%2f", "%00", "", ";x=1", "%ZZ", "%", "~", "echo", "check", "a".repeat(3000), "%C0%AE", "%EF%BF%BD", "%F0%9F%98%80", "\\", "@", ":"), weight: 2 },
);
const path = fc.tuple(
  fc.constantFrom("/api/v1/echo", "/api/v1", "/api/v1/check", "/api/v1/x"),
  fc.oneof(fc.constant([]), fc.array(segment, { minLength: 1, maxLength: 6 })),
  fc.constantFrom("", "?", "?a=1&a=2", "#frag", "?key=%00"),
).map(([base, segs, tail]) => [base, ...segs].join("/") + tail);

type Presented = { headers: Record<string, string>; valid: boolean };

/** Credentials in every shape; `valid` when the live key is presented where it is read. */
function credentials(f: Fixture, revoked: string): fc.Arbitrary<Presented> {
  const secretMangled = f.apiKey.slice(0, -1) + (f.apiKey.endsWith("A") ? "B" : "A");
  const asBearer = (k: string) => fc.constantFrom(`Bearer ${k}`, `bearer ${k}`, `BEARER  ${k}  `, `Bearer\t${k}`);
  return fc.oneof(
    fc.constant({ headers: {}, valid: false }),
    { arbitrary: asBearer(f.apiKey).map((a) => ({ headers: { authorization: a }, valid: true })), weight: 3 },
    { arbitrary: fc.constantFrom(f.apiKey, ` ${f.apiKey} `).map((k) => ({ headers: { "x-api-key": k }, valid: true })), weight: 2 },
    fc.oneof(asBearer(revoked), asBearer(secretMangled), asBearer(f.apiKey + "x"), asBearer(f.apiKey.toUpperCase()), fc.constant(`Basic ${f.apiKey}`), fc.constant(`Bearer ${f.apiKey} extra`)).map((a) => ({ headers: { authorization: a }, valid: false })),
    headerText.map((a) => ({ headers: { authorization: a }, valid: false })),
    headerText.map((k) => ({ headers: { "x-api-key": k }, valid: false })),
    // Both headers: Authorization wins when it is a bearer.
    headerText.filter((a) => !/^Bearer\s+\S+\s*$/i.test(a)).map((a) => ({ headers: { authorization: a, "x-api-key": revoked }, valid: false })),
    asBearer(revoked).map((a) => ({ headers: { authorization: a, "x-api-key": f.apiKey }, valid: false })),
    fc.constant({ headers: { authorization: `Bearer ${f.apiKey}`, "x-api-key": revoked }, valid: true }),
  );
}

const clientAddress = fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: headerText, weight: 1 });

describe("/api/v1 (echo, any other path, the decision service)", () => {
  it(`never a 5xx or a throw; admitted only with the live key it presented (${runs(500)} cases)`, { timeout: 120_000 }, async () => {
    const cases = fc.record({
      method: fc.constantFrom(...METHODS),
      path,
      creds: credentials(fx, revokedKey),
      ip: clientAddress,
      body: hostileBody({ identifier: "user-1", rule: "checked", cost: 1 }),
    });
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const pathname = new URL(ORIGIN + c.path).pathname;
        const routes = pathname === "/api/v1/check" ? check : pathname === "/api/v1/echo" || pathname.startsWith("/api/v1/echo/") ? echo : catchAll;
        const body = c.method === "GET" ? undefined : c.body;
        const res = await fuzzCall(routes[c.method]!, { method: c.method, route: c.path.slice(1), params: {}, query: "", body, headers: { "x-forwarded-for": c.ip ?? sec.freshIp(), ...c.creds.headers } });
        if (res.status === 401) expect(c.creds.valid).toBe(false);
        if (res.status < 400 || (res.status !== 401 && res.status !== 429)) {
          // Past authentication: only the live key gets here.
          expect(c.creds.valid, `${res.status} ${JSON.stringify(res.body)}`).toBe(true);
        }
        if (res.status === 200 && routes === echo) expect(res.body).toMatchObject({ ok: true, keyId: fx.keyId, tenantId: fx.tenantId, method: c.method });
        if (res.status === 200 && routes === check) expect(res.body).toMatchObject({ rule: "checked", allowed: expect.any(Boolean) });
      }),
      { seed: seedOf("/api/v1"), numRuns: runs(500) },
    );
  });
});

describe("POST /api/v1/check", () => {
  it(`never a 5xx or a throw; a 200 is the verdict of the rule asked for (${runs(300)} cases)`, { timeout: 120_000 }, async () => {
    const cases = fc.record({ creds: credentials(fx, revokedKey), body: hostileBody({ identifier: "user-1", rule: "checked", cost: 1 }) });
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const res = await fuzzCall(check.POST!, { method: "POST", route: "api/v1/check", params: {}, query: "", body: c.body, headers: { "x-forwarded-for": sec.freshIp(), ...c.creds.headers } });
        if (!c.creds.valid) expect([401, 429]).toContain(res.status);
        if (res.status === 200) expect(res.body).toMatchObject({ rule: "checked", allowed: expect.any(Boolean), limit: 1000 });
      }),
      { seed: seedOf("/api/v1/check"), numRuns: runs(300) },
    );
  });
});

describe("POST /api/auth/login", () => {
  it(`never a 5xx or a throw; never logged in without the password (${runs(200)} cases)`, { timeout: 120_000 }, async () => {
    const cases = fc.record({
      body: hostileBody({ email: fx.loginEmail, password: "not the password at all" }),
      origin: fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fc.constant(ORIGIN), weight: 3 }, { arbitrary: headerText, weight: 1 }),
      ip: clientAddress,
    });
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const headers: Record<string, string> = { "x-forwarded-for": c.ip ?? sec.freshIp(), ...(c.origin === null ? {} : { origin: c.origin }) };
        const res = await fuzzCall(login.POST!, { method: "POST", route: "api/auth/login", params: {}, query: "", body: c.body, headers });
        expect(res.status).not.toBe(200);
        expect(res.headers.get("set-cookie")).toBeNull();
      }),
      { seed: seedOf("/api/auth/login"), numRuns: runs(200) },
    );
  });
});
