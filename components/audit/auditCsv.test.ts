import { describe, expect, it } from "vitest";
import { auditCsv } from "./auditCsv";
import type { AuditEvent } from "./auditTypes";

const event = (over: Partial<AuditEvent>): AuditEvent => ({
  id: "8",
  at: "2026-11-24T10:00:00.000Z",
  actor: "operator:ops@example.com",
  action: "rules.replace",
  target: "tenant:Tn000001",
  tenantId: "Tn000001",
  before: [{ name: "per-key", limit: 120, windowMs: 60_000 }],
  after: [{ name: "per-key", limit: 1200, windowMs: 60_000 }],
  revertOf: null,
  revertible: true,
  ...over,
});

describe("auditCsv", () => {
  it("one quoted line per entry with its sentence, quotes doubled, CRLF", () => {
    const csv = auditCsv([event({})], () => 'demo "prod"');
    const [header, line] = csv.split("\r\n");
    expect(header).toBe('"id","time","operator","action","target","tenant","change","before","after"');
    expect(line).toContain(
      '"ops@example.com","rules.replace","tenant:Tn000001","demo ""prod""","Rules of demo ""prod"": per-key: 120 → 1,200 per min"',
    );
    expect(csv.endsWith("\r\n")).toBe(true);
  });

  it("a name that looks like a formula is not one", () => {
    const csv = auditCsv([event({ tenantId: "Tn000002" })], () => "=HYPERLINK(1)");
    expect(csv).toContain(`"'=HYPERLINK(1)"`);
  });
});
