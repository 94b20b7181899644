import { describe, expect, it } from "vitest";
import { limiterRule } from "@/test/support/rules";
import { ruleSpec } from "../../limiter/ruleSpec";
import { LimiterUnavailableError, type Decision, type LimiterRule, type Subject } from "../../limiter/types";
import { chargeByResponse, rulesToCharge, statusClassOf } from "./chargeByResponse";

const fourxx = limiterRule({ name: "stuffing", chargeOn: ["4xx"], limit: 3 });
const refund = limiterRule({ name: "refund", chargeOn: ["1xx", "2xx", "3xx", "4xx"] });
const subject: Subject = { tenantId: "t", keyId: "k", ip: "192.0.2.1" };

function fakeLimiter(answer: "charged" | "no_quota" | "down") {
  const calls: string[][] = [];
  const limiter = {
    async charge(rules: LimiterRule[], s: Subject): Promise<Decision> {
      calls.push(rules.map((r) => `${r.name}@${s.keyId}`));
      if (answer === "down")
        throw new LimiterUnavailableError("redis did not answer within 100 ms", { kind: "timeout" });
      return {
        allowed: answer === "charged",
        unavailable: false,
        retryAfterMs: answer === "charged" ? 0 : 1000,
        nowMs: 0,
        results: [],
      };
    },
  };
  const counted: string[] = [];
  const metrics = { responseCharges: { inc: (labels: { outcome: string }) => void counted.push(labels.outcome) } };
  const logged: string[] = [];
  return {
    calls,
    counted,
    logged,
    deps: { limiter, metrics: metrics as never, log: (m: string) => void logged.push(m) },
  };
}

describe("the charge decision by status", () => {
  it("maps a status to its class, and nothing outside 100..599", () => {
    expect([101, 200, 302, 401, 429, 503, 599].map(statusClassOf)).toEqual([
      "1xx",
      "2xx",
      "3xx",
      "4xx",
      "4xx",
      "5xx",
      "5xx",
    ]);
    expect([0, 99, 600, 200.5].map(statusClassOf)).toEqual([undefined, undefined, undefined, undefined]);
  });

  it("charges only the rules whose chargeOn lists the class: 4xx for stuffing, never 5xx for the refund", () => {
    const rules = [fourxx, refund];
    expect(rulesToCharge(rules, 401).map((r) => r.name)).toEqual(["stuffing", "refund"]);
    expect(rulesToCharge(rules, 200).map((r) => r.name)).toEqual(["refund"]);
    expect(rulesToCharge(rules, 502).map((r) => r.name)).toEqual([]);
  });

  it("makes one limiter call for the charged rules, with the admission's subject, and counts it", async () => {
    const f = fakeLimiter("charged");
    await chargeByResponse({ rules: [fourxx, refund], subject }, 403, f.deps);
    await chargeByResponse({ rules: [fourxx], subject }, 200, f.deps);
    await chargeByResponse({ rules: [fourxx], subject }, undefined, f.deps);
    expect(f.calls).toEqual([["stuffing@k", "refund@k"]]);
    expect(f.counted).toEqual(["charged"]);
  });

  it("counts a charge that found no quota left (requests in flight took it)", async () => {
    const f = fakeLimiter("no_quota");
    await chargeByResponse({ rules: [fourxx], subject }, 401, f.deps);
    expect(f.counted).toEqual(["no_quota"]);
  });

  it("never rejects when Redis cannot take the charge: logged and counted as failed", async () => {
    const f = fakeLimiter("down");
    await expect(chargeByResponse({ rules: [fourxx], subject }, 401, f.deps)).resolves.toBeUndefined();
    expect(f.counted).toEqual(["failed"]);
    expect(f.logged.join()).toMatch(/could not charge a 401 response to stuffing \(tenant t\): redis did not answer/);
  });
});

describe("which rules are checked without consuming (held) at admission", () => {
  it("sends a chargeOn rule held (negated cost) when the decision holds, and as usual otherwise", () => {
    const plain = limiterRule({ name: "plain", cost: 2 });
    const byResponse = limiterRule({ name: "by-response", cost: 2, chargeOn: ["4xx"] });
    const cost = (rule: LimiterRule, hold: boolean) => ruleSpec(rule, true, hold).fields[4];
    expect([cost(plain, true), cost(plain, false), cost(byResponse, true), cost(byResponse, false)]).toEqual([
      "2",
      "2",
      "-2",
      "2",
    ]);
    // Held and charging specs differ, so a refusal cached for one never answers the other.
    expect(ruleSpec(byResponse, true, true).id).not.toBe(ruleSpec(byResponse, true, false).id);
  });
});
