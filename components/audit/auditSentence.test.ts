import { describe, expect, it } from "vitest";
import { auditSentence, revertEffect } from "./auditSentence";
import type { AuditEvent } from "./auditTypes";

const rule = (name: string, limit = 10) => ({ name, limit, windowMs: 60_000 });
const event = (over: Partial<AuditEvent>): AuditEvent => ({
  id: "8",
  at: "2026-11-24T10:00:00.000Z",
  actor: "token",
  action: "rules.replace",
  target: "key:Ky000001",
  tenantId: "Tn000001",
  before: [rule("per-key", 120)],
  after: [rule("per-key", 1200)],
  revertOf: null,
  revertible: true,
  targetName: "abusive",
  ...over,
});
const names = { tenant: "demo" };

describe("auditSentence", () => {
  it("names the key and tenant of a rule change and says what changed", () => {
    expect(auditSentence(event({}), names)).toBe("Overrides of key abusive (demo): per-key: 120 → 1,200 per min");
    expect(auditSentence(event({ target: "tenant:Tn000001" }), names)).toBe(
      "Rules of demo: per-key: 120 → 1,200 per min",
    );
  });

  it("a revert says which change it reverted", () => {
    expect(auditSentence(event({ action: "rules.replace.revert", revertOf: "7" }), names)).toBe(
      "Reverted change #7. Overrides of key abusive (demo): per-key: 120 → 1,200 per min",
    );
  });
});

describe("auditSentence of an access-list change", () => {
  const access = event({
    action: "access.replace",
    target: "tenant:Tn000001",
    before: { allow: ["10.0.0.0/8"], deny: [] },
    after: { allow: [], deny: ["192.0.2.1", "key:Ky000001"] },
  });
  it("counts the entries added and removed per list, and its revert says what it sets back", () => {
    expect(auditSentence(access, names)).toBe("Access lists of demo: allow −1, deny +2");
    expect(revertEffect(access, names).text).toBe("This sets the access lists of demo back (allow +1, deny −2).");
  });
});

describe("auditSentence of an identifier-override change", () => {
  const overrides = event({
    action: "overrides.replace",
    target: "tenant:Tn000001",
    before: { rule: "per-caller", overrides: [] },
    after: {
      rule: "per-caller",
      overrides: [
        { identifier: "acme", limit: 5 },
        { identifier: "ent:*", limit: 50 },
      ],
    },
  });
  it("names the rule and counts the overrides; its revert says what it sets back", () => {
    expect(auditSentence(overrides, names)).toBe("Overrides of rule per-caller of demo: 2 overrides");
    expect(revertEffect(overrides, names).text).toBe(
      "This sets the overrides of rule per-caller of demo back (0 overrides).",
    );
  });
});

describe("revertEffect", () => {
  it("a revert to an empty list says plainly that it removes every rule of the tenant", () => {
    const seeded = event({ target: "tenant:Tn000001", before: [], after: [rule("a")] });
    const current = ["a", "b", "c", "d", "e", "f", "g"].map((n) => rule(n));
    expect(revertEffect(seeded, names, current)).toEqual({
      text: "This removes all 7 rules of demo: no request of demo will be limited.",
      removesEverything: true,
    });
  });

  it("otherwise it names what it sets back, against the rules as they are now", () => {
    const effect = revertEffect(event({ target: "tenant:Tn000001" }), names, [rule("per-key", 1200), rule("extra")]);
    expect(effect).toEqual({
      text: "This removes 1 rule and sets the rules of demo back: per-key: 1,200 → 120 per min; removed extra.",
      removesEverything: false,
    });
  });
});

describe("auditSentence of an upstream change", () => {
  const upstream = (after: unknown) =>
    auditSentence(event({ action: "upstream.replace", target: "tenant:Tn000001", before: null, after }), names);
  it("says whether requests are signed and when a new secret was generated, never naming it", () => {
    expect(upstream({ url: "http://u", timeoutMs: 1000 })).toBe("Upstream of demo set to http://u");
    expect(upstream({ url: "http://u", timeoutMs: 1000, signRequests: true })).toBe(
      "Upstream of demo set to http://u (signed requests)",
    );
    expect(upstream({ url: "http://u", timeoutMs: 1000, signRequests: true, secretRotated: true })).toBe(
      "Upstream of demo set to http://u (signed requests, new signing secret)",
    );
  });
});
