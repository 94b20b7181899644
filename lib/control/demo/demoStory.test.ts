/**
 * The README's story of `npm run demo`, decided by the limiter's reference models (the ones the Lua
 * scripts mirror: lib/limiter/algorithms/modelDecide.ts) over five minutes of the demo's own traffic
 * schedule and the seeded rules, matched to requests by enforcement's own matcher: steady clients
 * stay within their limits, the bursty ones are refused by their token bucket (and nothing else),
 * the abusive one is mostly refused, the decision-API client's own calls pass and its sign-ups are
 * refused by `signups` for the one identifier that signs up too often (issue 31, point 9).
 */
import { describe, expect, it } from "vitest";
import { modelDecide } from "../../limiter/algorithms/modelDecide";
import type { LimiterRule } from "../../limiter/types";
import { compileRule, rulesForRequest } from "../../policy/compiled/effectiveRules";
import { ruleSchema } from "../../policy/rules/ruleSchema";
import { DEMO_BEHAVIOURS, type DemoBehaviour } from "./demoTraffic";
import { DEMO_TENANTS } from "./demoTenants";

const START = 1_800_000_000_000;
const RUN_MS = 5 * 60_000;

interface Outcome {
  sent: number;
  refused: number;
  /** Enforce rules that refused at least one request of this client. */
  refusedBy: Set<string>;
  /** Identifier → refusals by the checked identifier rule (decision-API calls). */
  identifierRefusals: Map<string, number>;
}

/** One counter per rule and subject, as lib/limiter/keys.ts keeps them. */
function forSubject(rule: LimiterRule, b: DemoBehaviour, identifier?: string): LimiterRule {
  const who = { key: b.client, ip: b.ip, tenant: "", identifier: identifier ?? "" }[rule.scope as string];
  return { ...rule, ref: `${rule.ref}|${rule.scope}:${who ?? "?"}` };
}

function simulate(): Map<string, Outcome> {
  const outcomes = new Map<string, Outcome>();
  for (const tenant of DEMO_TENANTS) {
    const compiled = tenant.rules.map((r) => compileRule(ruleSchema.parse(r), r.name, false));
    const states = new Map<string, unknown>();
    // Every request of the tenant's clients in time order (setInterval: first tick after everyMs).
    const events: { at: number; b: DemoBehaviour; i: number }[] = [];
    for (const b of DEMO_BEHAVIOURS.filter((x) => x.tenant === tenant.name)) {
      outcomes.set(b.client, { sent: 0, refused: 0, refusedBy: new Set(), identifierRefusals: new Map() });
      let i = 0;
      for (let at = b.everyMs; at <= RUN_MS; at += b.everyMs)
        for (let n = 0; n < b.burst; n++) events.push({ at, b, i: i++ });
    }
    events.sort((x, y) => x.at - y.at);
    for (const { at, b, i } of events) {
      const request = b.request(i);
      const out = outcomes.get(b.client)!;
      const rules = rulesForRequest(compiled, request.method, request.path).map((r) => forSubject(r, b));
      const results = modelDecide(states, rules, START + at);
      out.sent++;
      const refusing = rules.filter((r, k) => r.mode === "enforce" && !results[k]!.allowed);
      for (const r of refusing) out.refusedBy.add(r.name);
      if (refusing.length > 0) out.refused++;
      else if (request.path === "/api/v1/check") {
        const body = request.body as { rule: string; identifier: string };
        const rule = compiled.find((r) => r.rule.name === body.rule)!.limiter;
        const [answer] = modelDecide(states, [forSubject(rule, b, body.identifier)], START + at);
        if (!answer!.allowed)
          out.identifierRefusals.set(body.identifier, (out.identifierRefusals.get(body.identifier) ?? 0) + 1);
      }
    }
  }
  return outcomes;
}

describe("the demo does what the README says", () => {
  const outcomes = simulate();
  const of = (client: string) => outcomes.get(client)!;

  it("steady clients stay within their limits", () => {
    for (const client of ["steady", "mobile"]) expect(of(client).refused, client).toBe(0);
  });

  it("bursty clients are refused by their token bucket and by nothing else", () => {
    expect([...of("bursty").refusedBy]).toEqual(["burst"]);
    expect([...of("batch").refusedBy]).toEqual(["nightly-export"]);
    for (const client of ["bursty", "batch"]) expect(of(client).refused, client).toBeGreaterThan(0);
  });

  it("the abusive client is mostly refused", () => {
    expect(of("abusive").refused / of("abusive").sent).toBeGreaterThan(0.5);
  });

  it("the decision-API client's own calls pass; `signups` refuses the identifier that signs up too often", () => {
    const partner = of("partner");
    expect(partner.refused).toBe(0);
    expect([...partner.identifierRefusals.keys()]).toEqual(["signup:203.0.113.7"]);
  });
});
