/**
 * Concurrency rules through the gateway on two built servers sharing one Redis (issue 17 point 6):
 * with limit 2 and two slow requests in flight (one through each instance), a third is refused 429
 * with Retry-After 1 on either instance and never reaches the upstream; a slot comes back when a
 * response ends and when the client goes away (exactly one each time); forward auth is not subject
 * to concurrency rules; the leases of an instance
 * killed mid-request expire after the lease length (windowMs), not before.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { apiCall, type ApiAnswer, type CreatedKey } from "@/test/support/adminClient";
import { waitUntil } from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";
import { startTestUpstream, type TestUpstream } from "@/test/support/testUpstream";
import { metricValue } from "@/test/support/metricValue";
import { twoServersForSuite } from "@/test/support/twoServers";

// A generous Redis deadline: on a loaded machine the default 100 ms would fail rules open.
const servers = twoServersForSuite("http-concurrency", { SLUICE_REDIS_TIMEOUT_MS: "2000" });
const LEASE_MS = 30_000;

/** Upstream requests under /slow are held until `finish`ed (or their client goes); others answer at once. */
const held: { url: string; res: ServerResponse }[] = [];
let upstream: TestUpstream;

beforeAll(async () => {
  upstream = await startTestUpstream((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    if (req.url?.includes("/slow")) held.push({ url: req.url, res });
    else res.end(JSON.stringify({ fast: true }));
  });
});

afterAll(async () => {
  await upstream.close();
});

function finish(url: string): void {
  const i = held.findIndex((h) => h.url === url);
  held.splice(i, 1)[0]!.res.end(JSON.stringify({ slow: true }));
}

const reached = (tenantId: string, part: string) =>
  upstream.seen.filter((s) => s.headers["x-sluice-tenant"] === tenantId && s.url.includes(part)).length;

/** A tenant whose upstream is the test upstream, with `rules` and one key, once B serves it (set-up). */
const fixture = (rules: RuleInput[]) =>
  servers.tenantWithKey(rules, { upstream: { url: upstream.url, timeoutMs: 20_000 } });

const call = (server: SluiceServer, key: CreatedKey, path: string, signal?: AbortSignal): Promise<ApiAnswer> =>
  apiCall(server.url, path, { key: key.key, signal });

function expectNoSlot(answer: ApiAnswer): void {
  expect(answer.status).toBe(429);
  expect(answer.headers.get("retry-after")).toBe("1");
  expect(answer.headers.get("ratelimit")).toBe('"inflight";r=0;t=1');
  expect((answer.body as { "violated-policies": string[] })["violated-policies"]).toEqual(["inflight"]);
}

const INFLIGHT: RuleInput = {
  name: "inflight",
  algorithm: "concurrency",
  limit: 2,
  windowMs: LEASE_MS,
  match: { path: "/work/**" },
};

describe("concurrency rules through the gateway on two instances", () => {
  it("a third concurrent request is refused on either instance; a slot comes back when a response ends, exactly one", async () => {
    const { a, b } = servers;
    const { tenantId, key } = await fixture([INFLIGHT]);
    const first = call(a, key, "/api/v1/work/slow/1");
    const second = call(b, key, "/api/v1/work/slow/2");
    await waitUntil(async () => reached(tenantId, "/slow/") === 2, 10_000, "both slow requests reach the upstream");

    expectNoSlot(await call(a, key, "/api/v1/work/fast"));
    expectNoSlot(await call(b, key, "/api/v1/work/fast"));
    expect(reached(tenantId, "/fast")).toBe(0);
    // Forward auth never sees a request end: concurrency rules do not apply to it.
    const authorized = await apiCall(a.url, "/api/v1/authorize", {
      key: key.key,
      headers: { "x-forwarded-method": "GET", "x-forwarded-uri": "/work/fast" },
    });
    expect(authorized.status).toBe(200);
    expect(authorized.headers.get("ratelimit-policy")).toBeNull();

    finish("/work/slow/1");
    const ended = await first;
    expect(ended.status).toBe(200);
    expect(ended.headers.get("ratelimit-policy")).toBe(`"inflight";q=2;w=${LEASE_MS / 1000}`);
    expect(ended.headers.get("ratelimit")).toMatch(/^"inflight";r=[01];t=0$/); // free slots once admitted (first or second)
    // The slot is given back once the exchange is over (just after the client has its answer).
    await waitUntil(
      async () => (await call(b, key, "/api/v1/work/fast")).status === 200,
      10_000,
      "a slot is free again",
    );
    const third = call(b, key, "/api/v1/work/slow/3");
    await waitUntil(
      async () => reached(tenantId, "/slow/") === 3,
      10_000,
      "the third slow request reaches the upstream",
    );
    expectNoSlot(await call(a, key, "/api/v1/work/fast")); // one slot came back, not two

    finish("/work/slow/2");
    finish("/work/slow/3");
    expect((await second).status).toBe(200);
    expect((await third).status).toBe(200);
  });

  it("a slot comes back when the client goes away", async () => {
    const { a, b } = servers;
    const releasedOnA = () => metricValue(a.url, 'sluice_concurrency_leases_total{event="released"}');
    const releasedBefore = await releasedOnA();
    const { tenantId, key } = await fixture([INFLIGHT]);
    const abort = new AbortController();
    const gone = call(a, key, "/api/v1/work/slow/gone", abort.signal).catch((error: unknown) => error);
    const stays = call(b, key, "/api/v1/work/slow/stays");
    await waitUntil(async () => reached(tenantId, "/slow/") === 2, 10_000, "both slow requests reach the upstream");
    expectNoSlot(await call(b, key, "/api/v1/work/fast"));

    abort.abort();
    expect(await gone).toBeInstanceOf(Error);
    await waitUntil(
      async () => (await call(b, key, "/api/v1/work/fast")).status === 200,
      10_000,
      "the aborted request's slot is free again",
    );
    // A counts the slot it gave back once Redis has answered its release: wait for that, then exactly one.
    await waitUntil(async () => (await releasedOnA()) > releasedBefore, 10_000, "A counts the release");
    expect(await releasedOnA()).toBe(releasedBefore + 1);
    held.splice(
      held.findIndex((h) => h.url === "/work/slow/gone"),
      1,
    ); // its upstream connection is closed
    finish("/work/slow/stays");
    expect((await stays).status).toBe(200);
  });

  it("the leases of a killed instance expire after the lease length, not before", async () => {
    const { a } = servers;
    const leaseMs = 8_000;
    const { tenantId, key } = await fixture([{ ...INFLIGHT, limit: 1, windowMs: leaseMs }]);
    const c = await startSluice({ env: servers.env.env });
    try {
      await waitUntil(async () => (await call(c, key, "/api/v1/probe")).status === 200, 10_000, "C serves the key");
      const before = Date.now();
      void call(c, key, "/api/v1/work/slow/lost").catch(() => undefined);
      await waitUntil(
        async () => reached(tenantId, "/slow/lost") === 1,
        10_000,
        "the request through C reaches the upstream",
      );
      await c.kill(); // no release will ever come from C
      let refusals = 0;
      const freedAt = await (async () => {
        for (;;) {
          const answer = await call(a, key, "/api/v1/work/fast");
          if (answer.status === 200) return Date.now();
          expectNoSlot(answer);
          refusals++;
          if (Date.now() - before > leaseMs + 20_000) throw new Error("the lost lease never expired");
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      })();
      expect(refusals).toBeGreaterThan(0); // the lost lease held its slot after C was gone
      // Taken after `before`, the lease cannot have expired earlier than leaseMs after it.
      expect(freedAt - before).toBeGreaterThanOrEqual(leaseMs);
    } finally {
      await c.stop();
      const lost = held.findIndex((h) => h.url === "/work/slow/lost");
      if (lost >= 0) held.splice(lost, 1);
    }
  });
});
