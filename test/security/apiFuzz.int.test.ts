/**
 * Property-based fuzzing of what anyone on the network can reach: /api/v1 (credentials in every
 * header shape, every method, odd and encoded paths sent as they are over a socket to the data
 * plane, hostile client addresses and bodies; the decision service's body) and POST
 * /api/auth/login (hostile bodies and Origins). Seeded, so every run is the same.
 *
 * Invariants: never a throw, never a 5xx, every 4xx problem+json (fuzzCall.ts); a header value no
 * HTTP parser accepts is a 400 from the server itself; a path the data
 * plane cannot decode once (encoded / or \, dot or empty segments, bad escapes) is a 400 whatever
 * the key; otherwise a request is admitted only with the live key it presented (never a revoked
 * key, a wrong secret or a mangled credential); a login never succeeds without the password, and
 * never sets a cookie when refused.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodePathOnce, splitTarget } from "@/lib/dataplane/requestPath";
import { dataPlaneUrl } from "@/test/support/dataPlaneRoute";
import { rawRequest } from "@/test/support/rawHttp";
import { callRoute, ORIGIN } from "@/test/support/routeCall";
import { loadRoutes } from "@/test/support/routeTestEnv";
import { checkAnswer, fuzzCall, runs, seedOf } from "./fuzzCall";
import { headerText, hostileBody, toWellFormed } from "./hostileInput";
import { hostileText } from "./hostileValues";
import { createFixture, securityEnv, type Fixture } from "./securityFixtures";

const sec = securityEnv("apifuzz");
// Loaded after the environment is set: config() reads it once, on first use.
// `echo` is the data plane (every path under /api/v1), served in this process (dataPlaneRoute.ts).
const { echo: dataPlane, login } = await loadRoutes("echo", "login");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
let fx: Fixture;
let revokedKey: string;

beforeAll(async () => {
  fx = await createFixture(sec);
  const revoked = await sec.newKey(fx.tenantId);
  const { key } = await loadRoutes("key");
  expect(
    (await callRoute(key.DELETE, { method: "DELETE", params: { keyId: revoked.id }, headers: sec.env.auth })).status,
  ).toBe(204);
  revokedKey = revoked.key;
});

afterAll(() => sec.cleanup());

/** Path segments a client might send: hostile text percent-encoded, or raw odd forms. */
const segment = fc.oneof(
  { arbitrary: hostileText.map((s) => encodeURIComponent(toWellFormed(s))), weight: 3 },
  {
    arbitrary: fc.constantFrom(
      "..",
      ".",
      "%2e%2e",
      "%2F",
      "%2f..%2f",
      "%00",
      "",
      ";x=1",
      "%ZZ",
      "%",
      "~",
      "echo",
      "check",
      "a".repeat(3000),
      "%C0%AE",
      "%EF%BF%BD",
      "%F0%9F%98%80",
      "\\",
      "@",
      ":",
    ),
    weight: 2,
  },
);
const path = fc
  .tuple(
    fc.constantFrom("/api/v1/echo", "/api/v1", "/api/v1/check", "/api/v1/x"),
    fc.oneof(fc.constant([]), fc.array(segment, { minLength: 1, maxLength: 6 })),
    fc.constantFrom("", "?", "?a=1&a=2", "#frag", "?key=%00"),
  )
  .map(([base, segs, tail]) => [base, ...segs].join("/") + tail);

type Presented = { headers: Record<string, string>; valid: boolean };

/** Credentials in every shape; `valid` when the live key is presented where it is read. */
function credentials(f: Fixture, revoked: string): fc.Arbitrary<Presented> {
  const secretMangled = f.apiKey.slice(0, -1) + (f.apiKey.endsWith("A") ? "B" : "A");
  const asBearer = (k: string) => fc.constantFrom(`Bearer ${k}`, `bearer ${k}`, `BEARER  ${k}  `, `Bearer\t${k}`);
  return fc.oneof(
    fc.constant({ headers: {}, valid: false }),
    { arbitrary: asBearer(f.apiKey).map((a) => ({ headers: { authorization: a }, valid: true })), weight: 3 },
    {
      arbitrary: fc.constantFrom(f.apiKey, ` ${f.apiKey} `).map((k) => ({ headers: { "x-api-key": k }, valid: true })),
      weight: 2,
    },
    fc
      .oneof(
        asBearer(revoked),
        asBearer(secretMangled),
        asBearer(f.apiKey + "x"),
        asBearer(f.apiKey.toUpperCase()),
        fc.constant(`Basic ${f.apiKey}`),
        fc.constant(`Bearer ${f.apiKey} extra`),
      )
      .map((a) => ({ headers: { authorization: a }, valid: false })),
    headerText.map((a) => ({ headers: { authorization: a }, valid: false })),
    headerText.map((k) => ({ headers: { "x-api-key": k }, valid: false })),
    // Both headers: Authorization wins when it is a bearer.
    headerText
      .filter((a) => !/^Bearer\s+\S+\s*$/i.test(a))
      .map((a) => ({ headers: { authorization: a, "x-api-key": revoked }, valid: false })),
    asBearer(revoked).map((a) => ({ headers: { authorization: a, "x-api-key": f.apiKey }, valid: false })),
    fc.constant({ headers: { authorization: `Bearer ${f.apiKey}`, "x-api-key": revoked }, valid: true }),
  );
}

/** Header values no HTTP/1.1 parser accepts (control characters): refused before any route runs. */
const unparsable = (headers: Record<string, string>): boolean =>
  Object.values(headers).some((v) => /[\u0000-\u0008\u000a-\u001f\u007f]/.test(v));

const clientAddress = fc.oneof({ arbitrary: fc.constant(null), weight: 4 }, { arbitrary: headerText, weight: 1 });

describe("/api/v1 (echo, any other path, the decision service)", () => {
  it(
    `never a 5xx or a throw; admitted only with the live key it presented (${runs(500)} cases)`,
    { timeout: 120_000 },
    async () => {
      const cases = fc.record({
        method: fc.constantFrom(...METHODS),
        path,
        creds: credentials(fx, revokedKey),
        ip: clientAddress,
        body: hostileBody({ identifier: "user-1", rule: "checked", cost: 1 }),
      });
      await fc.assert(
        fc.asyncProperty(cases, async (c) => {
          // The target as a client sends it: no fragment (a client never sends one).
          const target = c.path.split("#")[0]!;
          const decoded = decodePathOnce(splitTarget(target).rawPath);
          const route = !decoded.ok
            ? "malformed"
            : decoded.path === "/api/v1/check"
              ? "check"
              : /^\/api\/v1\/echo(\/|$)/.test(decoded.path)
                ? "echo"
                : "other";
          const body = c.method === "GET" || c.method === "HEAD" ? undefined : c.body;
          const headers: Record<string, string> = {
            "x-forwarded-for": c.ip ?? sec.freshIp(),
            ...c.creds.headers,
            ...(body?.contentType ? { "content-type": body.contentType } : {}),
          };
          const raw = await rawRequest(await dataPlaneUrl(), { method: c.method, target, headers, body: body?.text });
          const res = checkAnswer(`${c.method} ${target}`, raw.status, raw.headers, raw.text, c.method);
          const headBytes =
            Buffer.byteLength(`${c.method} ${target} HTTP/1.1\r\n`) +
            Object.entries(headers).reduce((n, [k, v]) => n + Buffer.byteLength(`${k}: ${v}\r\n`), 0);
          if (res.status === 431 || (res.status === 400 && /not valid HTTP/.test(JSON.stringify(res.body)))) {
            // Refused by the server's parser (Node's 16 KiB limit on the request head, or bytes no parser accepts).
            expect(headBytes > 16_000 || unparsable(headers), `${headBytes} bytes`).toBe(true);
            return;
          }
          if (unparsable(headers)) {
            // Node's parser refuses the request before Sluice sees it: a problem+json 400.
            expect(res.status, JSON.stringify(res.body)).toBe(400);
            return;
          }
          if (route === "malformed") {
            // Refused before the key is even read: the path cannot be decoded once.
            expect(res.status, JSON.stringify(res.body)).toBe(400);
            return;
          }
          if (res.status === 401) expect(c.creds.valid).toBe(false);
          if (res.status < 400 || (res.status !== 401 && res.status !== 429)) {
            // Past authentication: only the live key gets here.
            expect(c.creds.valid, `${res.status} ${JSON.stringify(res.body)}`).toBe(true);
          }
          if (res.status === 200 && route === "echo" && c.method !== "HEAD")
            expect(res.body).toMatchObject({ ok: true, keyId: fx.keyId, tenantId: fx.tenantId, method: c.method });
          if (res.status === 200 && route === "check")
            expect(res.body).toMatchObject({ rule: "checked", allowed: expect.any(Boolean) });
          if (res.status === 200 && route === "other") throw new Error(`200 for ${target}: no route and no upstream`);
          if (c.method === "OPTIONS" && c.creds.valid && res.status < 300 && route !== "other")
            expect(res.status).toBe(204);
        }),
        { seed: seedOf("/api/v1"), numRuns: runs(500) },
      );
    },
  );
});

describe("POST /api/v1/check", () => {
  it(
    `never a 5xx or a throw; a 200 is the verdict of the rule asked for (${runs(300)} cases)`,
    { timeout: 120_000 },
    async () => {
      const cases = fc.record({
        creds: credentials(fx, revokedKey),
        body: hostileBody({ identifier: "user-1", rule: "checked", cost: 1 }),
      });
      await fc.assert(
        fc.asyncProperty(cases, async (c) => {
          const res = await fuzzCall(dataPlane.POST!, {
            method: "POST",
            route: "api/v1/check",
            params: {},
            query: "",
            body: c.body,
            headers: { "x-forwarded-for": sec.freshIp(), ...c.creds.headers },
          });
          if (unparsable(c.creds.headers)) expect(res.status).toBe(400);
          else if (!c.creds.valid) expect([401, 429]).toContain(res.status);
          if (res.status === 200)
            expect(res.body).toMatchObject({ rule: "checked", allowed: expect.any(Boolean), limit: 1000 });
        }),
        { seed: seedOf("/api/v1/check"), numRuns: runs(300) },
      );
    },
  );
});

describe("POST /api/auth/login", () => {
  it(
    `never a 5xx or a throw; never logged in without the password (${runs(200)} cases)`,
    { timeout: 120_000 },
    async () => {
      const cases = fc.record({
        body: hostileBody({ email: fx.loginEmail, password: "not the password at all" }),
        origin: fc.oneof(
          { arbitrary: fc.constant(null), weight: 3 },
          { arbitrary: fc.constant(ORIGIN), weight: 3 },
          { arbitrary: headerText, weight: 1 },
        ),
        ip: clientAddress,
      });
      await fc.assert(
        fc.asyncProperty(cases, async (c) => {
          const headers: Record<string, string> = {
            "x-forwarded-for": c.ip ?? sec.freshIp(),
            ...(c.origin === null ? {} : { origin: c.origin }),
          };
          const res = await fuzzCall(login.POST!, {
            method: "POST",
            route: "api/auth/login",
            params: {},
            query: "",
            body: c.body,
            headers,
          });
          expect(res.status).not.toBe(200);
          expect(res.headers.get("set-cookie")).toBeNull();
        }),
        { seed: seedOf("/api/auth/login"), numRuns: runs(200) },
      );
    },
  );
});
