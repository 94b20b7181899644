import { describe, expect, it } from "vitest";
import { auditFieldChanges, auditHeading, fieldWords, rawView, valueWords } from "./auditHeading";
import type { AuditEvent } from "./auditTypes";

const event = (over: Partial<AuditEvent>): AuditEvent => ({
  id: "12",
  at: "2026-11-27T09:00:00.000Z",
  actor: "operator:alice@example.com",
  action: "rules.replace",
  target: "tenant:TenantA1",
  tenantId: "TenantA1",
  before: null,
  after: null,
  revertOf: null,
  revertible: true,
  ...over,
});
const acme = { tenant: "Acme" };

describe("audit headings in words", () => {
  it("names what changed, how and by whom, never the action code or an id", () => {
    expect(auditHeading(event({}), acme)).toBe("Rules of tenant Acme replaced by alice@example.com");
    expect(auditHeading(event({ target: "key:KeyA1", targetName: "abusive", actor: "token" }), acme)).toBe(
      "Overrides of key abusive (tenant Acme) replaced by admin API token",
    );
    expect(auditHeading(event({ action: "rules.replace.revert", revertOf: "9" }), acme)).toBe(
      "Rules of tenant Acme reverted by alice@example.com",
    );
    expect(auditHeading(event({ action: "key.revoke", target: "key:KeyA1", targetName: "abusive" }), acme)).toBe(
      "Key abusive of tenant Acme revoked by alice@example.com",
    );
    expect(auditHeading(event({ action: "upstream.delete" }), acme)).toBe(
      "Upstream of tenant Acme removed by alice@example.com",
    );
    expect(auditHeading(event({ action: "tenant.create", after: { name: "Acme" } }), { tenant: null })).toBe(
      "Tenant Acme created by alice@example.com",
    );
    expect(
      auditHeading(event({ action: "operator.update", tenantId: null, after: { email: "bob@example.com" } }), acme),
    ).toBe("Operator bob@example.com changed by alice@example.com");
  });
});

describe("field changes in words", () => {
  it("rules: per rule, without a burst on a sliding window", () => {
    const before = [{ name: "per-key", algorithm: "sliding_window", limit: 120, windowMs: 60_000, burst: 120 }];
    const after = [{ name: "per-key", algorithm: "sliding_window", limit: 2000, windowMs: 60_000, burst: 2000 }];
    expect(auditFieldChanges(event({ before, after }))).toEqual(["per-key: 120 → 2,000 per min"]);
  });

  it("other states: field by field, added and removed fields said so", () => {
    expect(
      auditFieldChanges(
        event({
          action: "upstream.replace",
          before: { url: "http://a.example", timeoutMs: 1000, signRequests: false },
          after: { url: "http://b.example", timeoutMs: 2000, signRequests: false, secretRotated: true },
        }),
      ),
    ).toEqual(["url: http://a.example → http://b.example", "timeout (ms): 1,000 → 2,000", "secret rotated: yes"]);
    expect(auditFieldChanges(event({ action: "alerts.delete", before: { webhookUrl: "h" }, after: null }))).toEqual([
      "webhook url: h (removed)",
    ]);
  });

  it("words for names and values", () => {
    expect(fieldWords("windowMinutes")).toBe("window minutes");
    expect([valueWords(null), valueWords(["a", "b"]), valueWords([{ a: 1 }]), valueWords(true)]).toEqual([
      "none",
      "a, b",
      "1 entry",
      "yes",
    ]);
  });

  it("the raw view drops a burst only where the algorithm does not use it", () => {
    expect(
      rawView([
        { name: "a", algorithm: "sliding_window", burst: 5 },
        { name: "b", algorithm: "token_bucket", burst: 5 },
        { name: "c", burst: 5 },
      ]),
    ).toEqual([
      { name: "a", algorithm: "sliding_window" },
      { name: "b", algorithm: "token_bucket", burst: 5 },
      { name: "c" },
    ]);
  });
});
