import { describe, expect, it } from "vitest";
import type { AuditEvent } from "@/components/audit/auditTypes";
import { changeMarkers, markerWords } from "./changeMarkers";

const event = (id: string, at: string, before: number, after: number): AuditEvent => ({
  id,
  at,
  actor: "operator:a@example.com",
  action: "rules.replace",
  target: "tenant:Tn000001",
  tenantId: "Tn000001",
  before: [{ name: "per-key", limit: before, windowMs: 60_000 }],
  after: [{ name: "per-key", limit: after, windowMs: 60_000 }],
  revertOf: null,
  revertible: true,
});

describe("change markers (issue 31, point 5)", () => {
  const from = Date.parse("2026-11-27T09:00:00Z");
  const to = Date.parse("2026-11-27T09:05:00Z");
  const events = [
    event("3", "2026-11-27T09:04:00Z", 200, 2_000),
    event("2", "2026-11-27T09:01:30Z", 120, 200),
    event("1", "2026-11-27T08:59:59Z", 100, 120),
  ];

  it("marks the changes inside the chart's window, oldest first, each with its sentence", () => {
    const markers = changeMarkers(events, from, to, () => ({ tenant: "demo" }));
    expect(markers.map((m) => [m.id, m.t])).toEqual([
      ["2", Date.parse("2026-11-27T09:01:30Z")],
      ["3", Date.parse("2026-11-27T09:04:00Z")],
    ]);
    expect(markers[1]!.what).toBe("Rules of demo: per-key: 200 → 2,000 per min");
    expect(markerWords(markers)).toBe("2 configuration changes marked");
    expect(markerWords([])).toBe("");
  });
});
