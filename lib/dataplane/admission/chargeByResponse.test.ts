import { describe, expect, it } from "vitest";
import { limiterRule } from "@/test/support/rules";
import { LimiterUnavailableError, type Decision, type LimiterRule, type Subject } from "../../limiter/types";
import { chargeByResponse, rulesToGiveBack, statusClassOf } from "./chargeByResponse";

const fourxx = limiterRule({ name: "stuffing", chargeOn: ["4xx"], limit: 3 });
const refund = limiterRule({ name: "refund", chargeOn: ["1xx", "2xx", "3xx", "4xx"] });
const subject: Subject = { tenantId: "t", keyId: "k", ip: "192.0.2.1" };
const reservation: Decision = { allowed: true, unavailable: false, retryAfterMs: 0, nowMs: 1_000, results: [] };

function fakeLimiter(answer: "given_back" | "window_passed" | "down") {
  const calls: string[][] = [];
  const limiter = {
    async giveBack(r: Decision, rules: LimiterRule[], s: Subject): Promise<number> {
      expect(r).toBe(reservation);
      calls.push(rules.map((rule) => `${rule.name}@${s.keyId}`));
      if (answer === "down")
        throw new LimiterUnavailableError("redis did not answer within 100 ms", { kind: "timeout" });
      return answer === "given_back" ? rules.length : 0;
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

describe("settling a reservation by the answer's status", () => {
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

  it("gives back only the rules whose chargeOn does not list the class: 2xx for stuffing, 5xx for the refund", () => {
    const rules = [fourxx, refund];
    expect(rulesToGiveBack(rules, 401).map((r) => r.name)).toEqual([]);
    expect(rulesToGiveBack(rules, 200).map((r) => r.name)).toEqual(["stuffing"]);
    expect(rulesToGiveBack(rules, 502).map((r) => r.name)).toEqual(["stuffing", "refund"]);
  });

  it("makes one limiter call for the rules to give back, with the reservation and its subject, and counts each outcome", async () => {
    const f = fakeLimiter("given_back");
    await chargeByResponse({ rules: [fourxx, refund], subject, reservation }, 403, f.deps);
    await chargeByResponse({ rules: [fourxx, refund], subject, reservation }, 503, f.deps);
    await chargeByResponse({ rules: [fourxx], subject, reservation }, 200, f.deps);
    expect(f.calls).toEqual([["stuffing@k", "refund@k"], ["stuffing@k"]]);
    expect(f.counted).toEqual(["charged", "given_back", "given_back"]);
  });

  it("keeps the reservation of a client that went away before any answer (no status): nothing given back", async () => {
    const f = fakeLimiter("given_back");
    await chargeByResponse({ rules: [fourxx, refund], subject, reservation }, undefined, f.deps);
    expect(f.calls).toEqual([]);
    expect(f.counted).toEqual(["no_answer"]);
  });

  it("counts a give-back that found the reservation's window over", async () => {
    const f = fakeLimiter("window_passed");
    await chargeByResponse({ rules: [fourxx], subject, reservation }, 200, f.deps);
    expect(f.counted).toEqual(["window_passed"]);
  });

  it("never rejects when Redis cannot take the give-back: logged and counted as failed, the reservation stays", async () => {
    const f = fakeLimiter("down");
    await expect(chargeByResponse({ rules: [fourxx], subject, reservation }, 200, f.deps)).resolves.toBeUndefined();
    expect(f.counted).toEqual(["failed"]);
    expect(f.logged.join()).toMatch(
      /could not give back stuffing for a 200 response \(tenant t\), which stays charged: redis did not answer/,
    );
  });
});
