import { describe, expect, it } from "vitest";
import { limitedMember } from "../../monitoring/record/limitedSubjects";
import { AlertEvaluator, type AlertPayload, type EvaluatorDeps, type TenantAlertSettings } from "./alertEvaluator";
import type { Observations } from "./alertObservations";

const MINUTE = 60_000;
const START = Date.UTC(2026, 10, 25, 2, 0, 0);

const tenant: TenantAlertSettings = {
  tenantId: "Tenant01",
  tenantName: "acme",
  webhookUrl: "https://hooks.example.com/x",
  secret: "whsec_test",
  refusalRate: { thresholdPct: 50, minutes: 5, minRequests: 10 },
  clientLimit: { hits: 3, windowMinutes: 2 },
};

/** An evaluator over fake data with a shared in-memory claim store: several evaluators are several instances. */
function bed(observations: () => Observations) {
  let now = START;
  const claims = new Set<string>();
  const delivered: AlertPayload[] = [];
  const requests: unknown[] = [];
  const deps = (): EvaluatorDeps => ({
    loadSettings: async () => [tenant],
    observe: async (_tenantId, request) => {
      requests.push(request);
      return observations();
    },
    claim: async (tenantId, type, minutes, window) => {
      const key = `${tenantId}/${type}/${minutes}/${window}`;
      if (claims.has(key)) return false;
      claims.add(key);
      return true;
    },
    ruleNames: async (_tenantId, refs) => new Map(refs.map((ref) => [ref, `rule-${ref}`])),
    deliver: async (_settings, alert) => {
      delivered.push(alert);
    },
    clock: () => now,
    log: () => undefined,
  });
  return { deps, delivered, requests, advance: (ms: number) => (now += ms), now: () => now };
}

const spike: Observations = { totals: { allowed: 10, refused: 30 }, limitCounts: new Map() };
const calm: Observations = { totals: { allowed: 100, refused: 1 }, limitCounts: new Map() };

describe("AlertEvaluator (injected clock, fake data and claims)", () => {
  it("a spike fires one refusal_rate alert per condition window, however many ticks and instances see it", async () => {
    const b = bed(() => spike);
    const [a, c] = [new AlertEvaluator(b.deps()), new AlertEvaluator(b.deps())];
    for (let i = 0; i < 6; i++) {
      await Promise.all([a.tick(), c.tick()]);
      b.advance(10_000);
    }
    await Promise.all([a.settled(), c.settled()]);
    expect(b.delivered).toHaveLength(1);
    const alert = b.delivered[0]!;
    expect(alert).toMatchObject({
      type: "refusal_rate",
      tenant: { id: "Tenant01", name: "acme" },
      firedAt: new Date(START).toISOString(),
      condition: tenant.refusalRate,
      observed: { requests: 40, refused: 30, refusedPct: 75 },
    });
    expect(alert.observedFrom).toBe(new Date(START - 5 * MINUTE).toISOString());
    // The next 5-minute window fires again.
    b.advance(5 * MINUTE);
    await a.tick();
    await a.settled();
    expect(b.delivered).toHaveLength(2);
  });

  it("asks for the trailing range of the rate and the trailing minutes of the client limit", async () => {
    const b = bed(() => calm);
    b.advance(90_500);
    await new AlertEvaluator(b.deps()).tick();
    const minute = Math.floor((START + 90_500) / MINUTE);
    expect(b.requests).toEqual([
      {
        refusalRange: { fromMs: START + 90_000 - 5 * MINUTE, toMs: START + 90_000 },
        limitMinutes: [minute - 1, minute],
      },
    ]);
  });

  it("calm traffic fires nothing", async () => {
    const b = bed(() => calm);
    const evaluator = new AlertEvaluator(b.deps());
    await evaluator.tick();
    await evaluator.settled();
    expect(b.delivered).toEqual([]);
  });

  it("a client over its limit fires one client_limit alert naming the client and the rule", async () => {
    const counts = new Map([[limitedMember({ tenantId: "Tenant01", ref: "r7", scope: "key", value: "KeyId001" }), 4]]);
    const b = bed(() => ({ totals: { allowed: 0, refused: 0 }, limitCounts: counts }));
    const evaluator = new AlertEvaluator(b.deps());
    await evaluator.tick();
    await evaluator.tick();
    await evaluator.settled();
    expect(b.delivered.map((d) => d.type)).toEqual(["client_limit"]);
    expect(b.delivered[0]!.observed).toEqual({
      clients: [{ subject: { ref: "r7", scope: "key", value: "KeyId001" }, hits: 4, rule: "rule-r7" }],
    });
  });

  it("a failing read is logged once per outage and delivers nothing", async () => {
    const logs: string[] = [];
    let failures = 0;
    let down = true;
    const b = bed(() => {
      if (down) throw new Error("redis down");
      return calm;
    });
    const evaluator = new AlertEvaluator({ ...b.deps(), log: (m) => logs.push(m), onFailure: () => failures++ });
    await evaluator.tick();
    await evaluator.tick();
    down = false;
    await evaluator.tick();
    expect(failures).toBe(2);
    expect(logs).toEqual([
      "alerts of tenant Tenant01 could not be evaluated: redis down",
      "alerts are evaluated again",
    ]);
    expect(b.delivered).toEqual([]);
  });
});
