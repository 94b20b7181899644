/**
 * One caller's history against the shared local Redis, under this file's own prefix: an API key,
 * a JWT subject and an anonymous address, recorded in two minutes (injected clock), flushed, and
 * read back per minute with the refusals per rule, the rules that refused, the totals and the
 * last complete minute; other callers of the tenant do not leak in.
 */
import { afterAll, describe, expect, it } from "vitest";
import { decisionOf, ruleResult } from "@/test/support/decisions";
import { MIN, monitoringTestBed, NOW, per, perRefused, req } from "@/test/support/monitoringTestBed";

const bed = monitoringTestBed("chist");
const { queries, recorder, newTenant } = bed;

afterAll(() => bed.close());

const burstRefused = ruleResult({ name: "burst", ref: "2", limit: 5 }, { allowed: false, remaining: 0 });
const minuteOfNow = Math.floor(NOW / MIN) * MIN;

describe("a caller's history: requests and refusals per minute, by rule", () => {
  const A = newTenant();
  const setup = (async () => {
    const r = recorder();
    // Minute of NOW: the key makes 4 requests, 1 refused by per-key.
    for (let i = 0; i < 3; i++) r.recordRequest(req(A, "KeyHist1", decisionOf([per])), NOW + i);
    r.recordRequest(req(A, "KeyHist1", decisionOf([perRefused])), NOW + 3);
    // Next minute: 5 requests, 2 refused by burst, 1 by both per-key and burst.
    const next = NOW + MIN;
    r.recordRequest(req(A, "KeyHist1", decisionOf([per])), next);
    r.recordRequest(req(A, "KeyHist1", decisionOf([per])), next + 1);
    r.recordRequest(req(A, "KeyHist1", decisionOf([per, burstRefused])), next + 2);
    r.recordRequest(req(A, "KeyHist1", decisionOf([per, burstRefused])), next + 3);
    r.recordRequest(req(A, "KeyHist1", decisionOf([perRefused, burstRefused])), next + 4);
    // Another key and a JWT subject, an address: not the key's.
    r.recordRequest(req(A, "KeyOther", decisionOf([perRefused])), NOW + 5);
    r.recordRequest(req(A, "~alice@example.com", decisionOf([perRefused])), NOW + 6);
    r.recordRequest(req(A, "~alice@example.com", decisionOf([per])), next + 6);
    r.recordRequest({ ...req(A, undefined, decisionOf([per])), ip: "2001:db8::7" }, NOW + 7);
    expect(await r.flush()).toBe("written");
  })();

  it("an API key: per minute its requests, refusals, and refusals per rule; rules most first; the last minute", async () => {
    await setup;
    const fromMs = minuteOfNow - MIN;
    const toMs = minuteOfNow + 2 * MIN + 30_000;
    const h = await queries.callerHistory({ tenantId: A, caller: "KeyHist1", fromMs, toMs });
    expect([h.kind, h.shown, h.resolution, h.stepMs]).toEqual(["key", "KeyHist1", "minute", MIN]);
    expect(h.points).toEqual([
      { t: minuteOfNow - MIN, requests: 0, refused: 0, byRule: {} },
      { t: minuteOfNow, requests: 4, refused: 1, byRule: { "1": 1 } },
      { t: minuteOfNow + MIN, requests: 5, refused: 3, byRule: { "1": 1, "2": 3 } },
      { t: minuteOfNow + 2 * MIN, requests: 0, refused: 0, byRule: {} },
    ]);
    expect(h.rules).toEqual([
      { ref: "2", name: "burst", mode: "enforce", refused: 3 },
      { ref: "1", name: "per-key", mode: "enforce", refused: 2 },
    ]);
    expect(h.totals).toEqual({ requests: 9, refused: 4 });
    // toMs is 30 s into minute+2: the last complete minute is minute+1.
    expect(h.current).toEqual({ fromMs: minuteOfNow + MIN, toMs: minuteOfNow + 2 * MIN, requests: 5, refused: 3 });
  });

  it("a JWT subject and an anonymous address, by their members", async () => {
    await setup;
    const range = { tenantId: A, fromMs: minuteOfNow, toMs: minuteOfNow + 2 * MIN };
    const jwt = await queries.callerHistory({ ...range, caller: "~alice@example.com" });
    expect([jwt.kind, jwt.shown]).toEqual(["jwt", "alice@example.com"]);
    expect(jwt.points.map((p) => [p.requests, p.refused, p.byRule])).toEqual([
      [1, 1, { "1": 1 }],
      [1, 0, {}],
    ]);
    const anon = await queries.callerHistory({ ...range, caller: "@2001:db8::7" });
    expect([anon.kind, anon.shown, anon.totals]).toEqual(["anonymous", "2001:db8::7", { requests: 1, refused: 0 }]);
  });

  it("refuses a malformed caller and a range over 24 h (422)", async () => {
    await expect(
      queries.callerHistory({ tenantId: A, caller: "a/b", fromMs: NOW - MIN, toMs: NOW }),
    ).rejects.toMatchObject({ code: "invalid" });
    await expect(
      queries.callerHistory({ tenantId: A, caller: "KeyHist1", fromMs: 0, toMs: NOW }),
    ).rejects.toMatchObject({ code: "invalid" });
  });
});
