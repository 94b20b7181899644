/**
 * Two built servers on one Redis (same prefix) and one Postgres, as in production: a limit is one
 * limit whichever instance a request reaches, and a rule change or key revocation made through one
 * instance is in force on the other within 1 s of the admin API's answer (../shared/CONTRACT.md).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { type AdminClient } from "@/test/support/adminClient";
import { msUntil } from "@/test/support/sluiceEnv";
import type { SluiceServer } from "@/test/support/sluiceServer";
import { echo, twoServersForSuite } from "@/test/support/twoServers";

const HOUR_MS = 3_600_000;
const PROPAGATION_LIMIT_MS = 1_000;
const GIVE_UP_MS = 10 * PROPAGATION_LIMIT_MS;

const servers = twoServersForSuite("http-two");
let a: SluiceServer;
let b: SluiceServer;
let adminA: AdminClient;

beforeAll(() => {
  ({ a, b, adminA } = servers);
});

const ECHO_ONLY = { path: "/api/v1/echo" };
/** Charges only GET /api/v1/probe: B showing it proves B has the tenant's rule list and key. */
const PROBE_RULE: RuleInput = {
  name: "probe",
  algorithm: "sliding_log",
  limit: 10_000,
  windowMs: HOUR_MS,
  match: { path: "/probe" },
};

/**
 * A tenant made through A with one key and `rules` (which must not match /api/v1/probe), returned
 * once B serves them (set-up, not the propagation assertion: that is timed by the tests below).
 */
const fixture = (rules: RuleInput[]) => servers.tenantWithKey(rules, { probe: PROBE_RULE });

describe("two instances", () => {
  it("share one limit: N requests split across both instances admit exactly N", async () => {
    const limit = 12;
    // failMode closed, pinned: this test asserts exact counts, and with the default (open) a decision
    // that missed its Redis deadline on a loaded machine was admitted by the fail mode: 13 of 12
    // (issue 15, point 14). Closed, such a decision answers 503 and can never over-admit. Such a 503
    // may or may not have been counted by Redis (its command was sent), hence the bounds below;
    // without a 503 they are the exact count. The deadline itself no longer expires while Redis's
    // reply waits unread in a starved process (lib/limiter/decideUnderLag.int.test.ts).
    const { key } = await fixture([
      { name: "shared", algorithm: "sliding_log", limit, windowMs: HOUR_MS, match: ECHO_ONLY, failMode: "closed" },
    ]);
    // Sent at once, alternating instances: twice the limit.
    const answers = await Promise.all(Array.from({ length: 2 * limit }, (_, i) => echo(i % 2 === 0 ? a : b, key)));
    const statuses = answers.map((r) => r.status);
    const count = (list: number[], status: number) => list.filter((s) => s === status).length;
    const [admitted, refused, unavailable] = [count(statuses, 200), count(statuses, 429), count(statuses, 503)];
    expect(admitted + refused + unavailable, `statuses ${statuses.join(",")}`).toBe(2 * limit);
    expect(admitted).toBeLessThanOrEqual(limit);
    expect(admitted + unavailable).toBeGreaterThanOrEqual(limit);
    // And it stays used up on both: nothing more is ever admitted.
    const after = [(await echo(a, key)).status, (await echo(b, key)).status];
    expect(admitted + count(after, 200)).toBeLessThanOrEqual(limit);
    if (unavailable === 0) expect(after).toEqual([429, 429]);
  });

  it("a rule change made through A is in force on B within 1 s", async () => {
    const { tenantId, key } = await fixture([
      { name: "per-key", algorithm: "sliding_log", limit: 1000, windowMs: HOUR_MS, match: ECHO_ONLY },
    ]);
    const before = await echo(b, key);
    expect(before.status).toBe(200);
    expect(before.headers.get("ratelimit-policy")).toBe(`"per-key";q=1000;w=3600`);

    await adminA.putTenantRules(tenantId, [
      { name: "per-key", algorithm: "sliding_log", limit: 3, windowMs: HOUR_MS, match: ECHO_ONLY },
    ]);
    const changedAt = performance.now();
    const elapsed = await msUntil(
      changedAt,
      async () => (await echo(b, key)).headers.get("ratelimit-policy") === `"per-key";q=3;w=3600`,
      GIVE_UP_MS,
    );
    expect(elapsed).toBeLessThan(PROPAGATION_LIMIT_MS);

    // And B enforces it: the counter kept its requests (the rule kept its name), so 3 is soon reached.
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await echo(b, key)).status);
    expect(statuses).toContain(429);
    expect((await echo(a, key)).status).toBe(429);
  });

  it("a key revoked through A is refused (401) on B within 1 s", async () => {
    const { key } = await fixture([]);
    expect((await echo(b, key)).status).toBe(200);

    await adminA.revokeKey(key.id);
    const revokedAt = performance.now();
    const elapsed = await msUntil(revokedAt, async () => (await echo(b, key)).status === 401, GIVE_UP_MS);
    expect(elapsed).toBeLessThan(PROPAGATION_LIMIT_MS);
    expect((await echo(a, key)).status).toBe(401);
  });
});
