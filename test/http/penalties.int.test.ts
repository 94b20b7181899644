/**
 * Penalties (rule field blockMs) on two built servers on one Redis and one Postgres
 * (../shared/CONTRACT.md "Rules"): a client penalised through A is refused on B, whatever the
 * counter says, with Retry-After and X-RateLimit-Reset to the penalty's end; /api/v1/check reports
 * it for an identifier; a counter reset through A lifts it on B within 1 s, B's cached refusal
 * included; a shadow rule's penalty never refuses; the Prometheus counter counts refusals under it.
 */
import { describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { apiCall, type ApiAnswer } from "@/test/support/adminClient";
import { msUntil, sleep } from "@/test/support/sluiceEnv";
import type { SluiceServer } from "@/test/support/sluiceServer";
import { metricValue } from "@/test/support/metricValue";
import { echo, twoServersForSuite } from "@/test/support/twoServers";

const PENALTY_MS = 600_000;
const PROPAGATION_LIMIT_MS = 1_000;
const GIVE_UP_MS = 10 * PROPAGATION_LIMIT_MS;

// A generous Redis deadline: on a loaded machine the default 100 ms fails rules open, which would
// read as a lifted penalty.
const servers = twoServersForSuite("http-penalties", { SLUICE_REDIS_TIMEOUT_MS: "2000" });

/** A tenant with `rules` and one key, returned once B serves it (set-up, not an assertion). */
const fixture = (rules: RuleInput[]) => servers.tenantWithKey(rules);

/** Seconds until `endMs` as Retry-After states them, for a request answered between `sentMs` and now. */
function retryAfterRange(endMs: number, sentMs: number): [number, number] {
  return [Math.ceil((endMs - Date.now()) / 1000), Math.ceil((endMs - sentMs) / 1000)];
}

const metric = (server: SluiceServer, rule: string, result: string): Promise<number> =>
  metricValue(server.url, `sluice_penalty_refusals_total{rule="${rule}",result="${result}"}`, servers.env.adminToken);

describe("penalties on two instances", () => {
  it("a client penalised through A is refused on B, whatever the counter says, with Retry-After to the penalty's end", async () => {
    // One request per second; the penalty outlasts the window many times over.
    const { key } = await fixture([
      {
        name: "strict",
        algorithm: "fixed_window",
        limit: 1,
        windowMs: 1_000,
        blockMs: PENALTY_MS,
        match: { path: "/api/v1/echo" },
      },
    ]);
    let first: ApiAnswer;
    let sentMs: number;
    // The one admitted request and the refusal must fall in one 1 s window: retry until they do.
    for (let attempt = 0; ; attempt++) {
      first = await echo(servers.a, key);
      sentMs = Date.now();
      if (first.status !== 200) break; // the previous attempt's refusal started the penalty
      const refused = await echo(servers.a, key);
      sentMs = Date.now();
      if (refused.status === 429) {
        first = refused;
        break;
      }
      if (attempt >= 5) throw new Error("could not provoke a refusal within one window");
    }
    expect(first.status).toBe(429);
    const endMs = sentMs + PENALTY_MS; // the penalty started at the latest when A answered
    expect(Number(first.headers.get("retry-after"))).toBeGreaterThanOrEqual(PENALTY_MS / 1000 - 5);
    expect(Number(first.headers.get("retry-after"))).toBeLessThanOrEqual(PENALTY_MS / 1000);

    await sleep(1_100); // the window is over: the counter alone would admit
    const sent = Date.now();
    const onB = await echo(servers.b, key);
    expect(onB.status).toBe(429);
    const [low, high] = retryAfterRange(endMs, sent);
    const retryAfter = Number(onB.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(low - 5); // A's answer and this clock differ by the request's time at most
    expect(retryAfter).toBeLessThanOrEqual(high);
    expect(Number(onB.headers.get("x-ratelimit-reset"))).toBeGreaterThanOrEqual(Math.floor((endMs - 5_000) / 1000));
    expect(onB.headers.get("ratelimit")).toMatch(/^"strict";r=0;t=\d+/);
    expect(onB.body).toMatchObject({ status: 429, "violated-policies": ["strict"] });
    expect((onB.body as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(PENALTY_MS - 10_000);
    // Again on B: answered from B's refusal cache now, still to the same end; counted as penalty refusals.
    const again = await echo(servers.b, key);
    expect(again.status).toBe(429);
    expect(Math.abs(Number(again.headers.get("retry-after")) - retryAfter)).toBeLessThanOrEqual(2);
    expect(await metric(servers.b, "strict", "refused")).toBeGreaterThanOrEqual(2);
  });

  it("a counter reset through A lifts the penalty on B within 1 s, B's cached refusal included", async () => {
    const { key } = await fixture([
      {
        name: "strict",
        algorithm: "sliding_log",
        limit: 1,
        windowMs: 60_000,
        blockMs: PENALTY_MS,
        match: { path: "/api/v1/echo" },
      },
    ]);
    expect((await echo(servers.a, key)).status).toBe(200);
    expect((await echo(servers.a, key)).status).toBe(429);
    expect((await echo(servers.b, key)).status).toBe(429); // B caches the refusal until the penalty's end
    const reset = await servers.adminA.request("DELETE", `/api/admin/keys/${key.id}/counters`);
    expect(reset.status).toBe(204);
    const resetAt = performance.now();
    expect(await msUntil(resetAt, async () => (await echo(servers.b, key)).status === 200, GIVE_UP_MS)).toBeLessThan(
      PROPAGATION_LIMIT_MS,
    );
  });

  it("an identifier penalised through A is reported refused by POST /api/v1/check on B, retryAfterMs to the penalty's end", async () => {
    const { key } = await fixture([
      {
        name: "checked",
        scope: "identifier",
        algorithm: "token_bucket",
        limit: 1,
        windowMs: 1_000,
        burst: 1,
        blockMs: PENALTY_MS,
      },
    ]);
    const check = (server: SluiceServer) =>
      apiCall(server.url, "/api/v1/check", {
        method: "POST",
        key: key.key,
        body: { identifier: "user-7", rule: "checked" },
      });
    expect((await check(servers.a)).body).toMatchObject({ allowed: true });
    expect((await check(servers.a)).body).toMatchObject({ allowed: false });
    await sleep(1_100); // the bucket has refilled: only the penalty refuses
    const onB = await check(servers.b);
    expect(onB.status).toBe(200);
    expect(onB.body).toMatchObject({ allowed: false, remaining: 0, rule: "checked" });
    expect((onB.body as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(PENALTY_MS - 10_000);
  });

  it("a shadow rule's penalty is only 'would refuse': the client is never refused for it", async () => {
    const { key } = await fixture([
      {
        name: "trial",
        algorithm: "fixed_window",
        limit: 1,
        windowMs: 3_600_000,
        blockMs: PENALTY_MS,
        mode: "shadow",
        match: { path: "/api/v1/echo" },
      },
    ]);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await echo(i % 2 === 0 ? servers.a : servers.b, key)).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect(await metric(servers.a, "trial", "would_refuse")).toBeGreaterThanOrEqual(1);
  });
});
