/**
 * Count by response (rule field chargeOn, issue 17 point 7, issue 28 point 2) through the gateway on
 * two built servers sharing one Redis, with a test upstream that answers by path (200, 401 or 503,
 * or holds the request until the test releases it):
 * - `chargeOn: ["4xx"]`, limit 3: of 40 requests sent at once only 3 reach the upstream while they
 *   are in flight (the cost is reserved at admission), and their 200s give it back;
 * - 200s never use quota; three 401s (through either instance) use it up; the next request is
 *   refused 429 on either instance and never reaches the upstream;
 * - a refund of upstream 5xx (`chargeOn` lists every class but 5xx): 503s are not charged, 200s are;
 * - forward auth charges the rule at admission (no status of the protected API is seen).
 * Give-backs are made once the status is known, after the answer has left: the tests wait on the
 * key's quota (GET /api/admin/keys/{id}/quota) before a request that must find it back.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { apiCall, type CreatedKey } from "@/test/support/adminClient";
import { waitUntil } from "@/test/support/sluiceEnv";
import type { SluiceServer } from "@/test/support/sluiceServer";
import { startTestUpstream, type TestUpstream } from "@/test/support/testUpstream";
import { twoServersForSuite } from "@/test/support/twoServers";

// A generous Redis deadline: on a loaded machine the default 100 ms would fail rules open.
const servers = twoServersForSuite("http-by-response", { SLUICE_REDIS_TIMEOUT_MS: "2000" });

let upstream: TestUpstream;
/** Answers of the upstream to requests under /hold, held until the test sends them. */
const held: ServerResponse[] = [];

beforeAll(async () => {
  upstream = await startTestUpstream((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    if (req.url?.includes("/hold")) return void held.push(res);
    const status = req.url?.includes("/bad") ? 401 : req.url?.includes("/broken") ? 503 : 200;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify({ status }));
  });
});

afterAll(async () => {
  await upstream.close();
});

const reached = (tenantId: string, part: string) =>
  upstream.seen.filter((s) => s.headers["x-sluice-tenant"] === tenantId && s.url.includes(part)).length;

/** A tenant whose upstream is the test upstream, with `rules` and one key, once B serves it (set-up). */
const fixture = (rules: RuleInput[]) =>
  servers.tenantWithKey(rules, { upstream: { url: upstream.url, timeoutMs: 10_000 } });

/** The rule's remaining quota for the key, as the admin API peeks it. */
async function remaining(key: CreatedKey, rule: string): Promise<number | null> {
  const answer = await servers.adminA.request("GET", `/api/admin/keys/${key.id}/quota`);
  expect(answer.status).toBe(200);
  return (answer.body as { rules: { name: string; remaining: number | null }[] }).rules.find((r) => r.name === rule)!
    .remaining;
}

const statusOf = async (server: SluiceServer, key: CreatedKey, path: string) =>
  (await apiCall(server.url, path, { key: key.key })).status;

const STUFFING: RuleInput = {
  name: "stuffing",
  algorithm: "fixed_window",
  limit: 3,
  windowMs: 3_600_000,
  chargeOn: ["4xx"],
  match: { path: "/login/**" },
};

describe("count by response through the gateway on two instances", () => {
  it("40 parallel requests under limit 3: only 3 reach the upstream while in flight, the rest get 429; their 200s give the units back", async () => {
    const { a, b } = servers;
    const { tenantId, key } = await fixture([STUFFING]);
    const statuses: number[] = [];
    const all = Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        statusOf(i % 2 ? a : b, key, `/api/v1/login/hold/${i}`).then((status) => void statuses.push(status)),
      ),
    );
    await waitUntil(
      async () => statuses.length === 37 && reached(tenantId, "/login/hold") === 3,
      20_000,
      "37 answered and 3 held by the upstream",
    );
    expect(statuses).toEqual(Array(37).fill(429));
    expect(await remaining(key, "stuffing")).toBe(0);
    for (const res of held.splice(0)) res.writeHead(200).end("{}");
    await all;
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(reached(tenantId, "/login/hold")).toBe(3);
    await waitUntil(async () => (await remaining(key, "stuffing")) === 3, 10_000, "the 200s give their units back");
  });

  it("charges only 4xx: 200s never use quota, three 401s do, then 429 on either instance without reaching the upstream", async () => {
    const { a, b } = servers;
    const { tenantId, key } = await fixture([STUFFING]);
    for (const server of [a, b, a, b, a]) expect(await statusOf(server, key, "/api/v1/login/ok")).toBe(200);
    expect(reached(tenantId, "/login/ok")).toBe(5);
    await waitUntil(async () => (await remaining(key, "stuffing")) === 3, 10_000, "the 200s give their units back");

    for (const server of [a, b, a]) expect(await statusOf(server, key, "/api/v1/login/bad")).toBe(401);
    expect(reached(tenantId, "/login/bad")).toBe(3);
    await waitUntil(async () => (await remaining(key, "stuffing")) === 0, 10_000, "the three 401s are charged");

    for (const server of [b, a]) {
      const refused = await apiCall(server.url, "/api/v1/login/bad", { key: key.key });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((refused.body as { "violated-policies": string[] })["violated-policies"]).toEqual(["stuffing"]);
    }
    // Over its 4xx budget, the client is stopped before the upstream, whatever it asks for.
    expect(await statusOf(b, key, "/api/v1/login/ok")).toBe(429);
    expect(reached(tenantId, "/login/bad")).toBe(3);
    expect(reached(tenantId, "/login/ok")).toBe(5);
  });

  it("refunds upstream 5xx: 503s are not charged, 200s are", async () => {
    const { a, b } = servers;
    const refund: RuleInput = {
      name: "refund",
      algorithm: "fixed_window",
      limit: 2,
      windowMs: 3_600_000,
      chargeOn: ["1xx", "2xx", "3xx", "4xx"],
      match: { path: "/orders/**" },
    };
    const { tenantId, key } = await fixture([refund]);
    for (const server of [a, b, a, b]) expect(await statusOf(server, key, "/api/v1/orders/broken")).toBe(503);
    await waitUntil(async () => (await remaining(key, "refund")) === 2, 10_000, "the 503s give their units back");
    expect(await statusOf(a, key, "/api/v1/orders/1")).toBe(200);
    expect(await statusOf(b, key, "/api/v1/orders/2")).toBe(200);
    await waitUntil(async () => (await remaining(key, "refund")) === 0, 10_000, "the two 200s are charged");
    expect(await statusOf(a, key, "/api/v1/orders/3")).toBe(429);
    expect(reached(tenantId, "/orders/")).toBe(6);
  });

  it("keeps the reservation of a client that goes away before its answer (it reached the upstream)", async () => {
    const { a } = servers;
    const { tenantId, key } = await fixture([STUFFING]);
    const gone = new AbortController();
    const call = fetch(`${a.url}/api/v1/login/hold/gone`, {
      headers: { authorization: `Bearer ${key.key}` },
      signal: gone.signal,
    }).catch(() => "aborted");
    await waitUntil(
      async () => reached(tenantId, "/login/hold/gone") === 1,
      10_000,
      "the request reaches the upstream",
    );
    gone.abort();
    expect(await call).toBe("aborted");
    for (const res of held.splice(0)) res.destroy();
    // Nothing is given back: the unit stays spent (before, it was never charged at all).
    expect(await remaining(key, "stuffing")).toBe(2);
  });

  it("charges at admission for forward auth, which never sees the protected API's status", async () => {
    const { a } = servers;
    const { key } = await fixture([STUFFING]);
    const authorize = () =>
      apiCall(a.url, "/api/v1/authorize", {
        key: key.key,
        headers: { "x-forwarded-method": "POST", "x-forwarded-uri": "/login/x" },
      });
    for (let i = 0; i < 3; i++) expect((await authorize()).status).toBe(200);
    expect(await remaining(key, "stuffing")).toBe(0);
    expect((await authorize()).status).toBe(429);
  });
});
