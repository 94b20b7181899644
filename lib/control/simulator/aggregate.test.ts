import { describe, expect, it } from "vitest";
import { aggregate, type ReplayedRequest } from "./aggregate";

/** 2026-01-01T10:00:00Z: an injected time, never the clock. */
const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const MIN = 60_000;

const req = (atMs: number, keyId: string | null, ip: string | null = "192.0.2.1"): ReplayedRequest => ({
  atMs,
  keyId,
  ip,
});
const flags = (...bits: number[]) => Uint8Array.from(bits);

describe("aggregate: per-minute series", () => {
  it("covers every minute the range touches, zeros included, each minute at its start", () => {
    const out = aggregate(
      { fromMs: T0 + 30_000, toMs: T0 + 3 * MIN + 1 },
      [req(T0 + 2 * MIN + 5, "k1")],
      flags(1),
      flags(0),
    );
    expect(out.current.perMinute).toEqual([
      { minuteMs: T0, allowed: 0, refused: 0 },
      { minuteMs: T0 + MIN, allowed: 0, refused: 0 },
      { minuteMs: T0 + 2 * MIN, allowed: 0, refused: 1 },
      { minuteMs: T0 + 3 * MIN, allowed: 0, refused: 0 },
    ]);
    expect(out.candidate.perMinute[2]).toEqual({ minuteMs: T0 + 2 * MIN, allowed: 1, refused: 0 });
  });

  it("treats toMs as exclusive: a range ending on a minute boundary does not touch the next minute", () => {
    const out = aggregate({ fromMs: T0, toMs: T0 + 2 * MIN }, [], flags(), flags());
    expect(out.current.perMinute.map((m) => m.minuteMs)).toEqual([T0, T0 + MIN]);
  });

  it("counts totals per side, and a request outside the range in the totals only", () => {
    const requests = [req(T0, "k1"), req(T0 + 1, "k1"), req(T0 + MIN, "k2"), req(T0 + 5 * MIN, "k2")];
    const out = aggregate({ fromMs: T0, toMs: T0 + 2 * MIN }, requests, flags(0, 1, 0, 1), flags(1, 1, 1, 0));
    expect([out.current.allowed, out.current.refused]).toEqual([2, 2]);
    expect([out.candidate.allowed, out.candidate.refused]).toEqual([1, 3]);
    expect(out.current.perMinute.reduce((n, m) => n + m.allowed + m.refused, 0)).toBe(3);
  });
});

describe("aggregate: clients", () => {
  it("a client is the key when there is one, else the IP; clientsAffected counts clients with a refusal", () => {
    const requests = [
      req(T0, "k1", "192.0.2.1"),
      req(T0, "k1", "192.0.2.2"),
      req(T0, null, "192.0.2.1"),
      req(T0, null, "192.0.2.9"),
    ];
    const out = aggregate({ fromMs: T0, toMs: T0 + MIN }, requests, flags(1, 1, 0, 0), flags(1, 0, 1, 1));
    expect(out.current.clientsAffected).toBe(1);
    expect(out.candidate.clientsAffected).toBe(3);
    expect(out.newlyRefused).toEqual([
      { keyId: null, keyName: null, clientIp: "192.0.2.1", requests: 1, currentRefused: 0, candidateRefused: 1 },
      { keyId: null, keyName: null, clientIp: "192.0.2.9", requests: 1, currentRefused: 0, candidateRefused: 1 },
    ]);
  });

  it("orders newly refused clients by the refusals the candidate adds, then by its refusals, then by client; at most the cap", () => {
    const requests: ReplayedRequest[] = [];
    const current: number[] = [];
    const candidate: number[] = [];
    const add = (keyId: string, n: number, currentRefused: number, candidateRefused: number) => {
      for (let i = 0; i < n; i++) {
        requests.push(req(T0 + i, keyId));
        current.push(i < currentRefused ? 1 : 0);
        candidate.push(i < candidateRefused ? 1 : 0);
      }
    };
    add("small", 5, 0, 1); // +1
    add("big", 10, 2, 9); // +7
    add("tied-b", 6, 3, 6); // +3, 6 refused
    add("tied-a", 4, 0, 3); // +3, 3 refused
    add("same", 4, 2, 2); // not newly refused
    add("fewer", 4, 3, 1); // refused less: not listed
    const out = aggregate(
      { fromMs: T0, toMs: T0 + MIN },
      requests,
      Uint8Array.from(current),
      Uint8Array.from(candidate),
    );
    expect(out.newlyRefused.map((c) => [c.keyId, c.candidateRefused - c.currentRefused])).toEqual([
      ["big", 7],
      ["tied-b", 3],
      ["tied-a", 3],
      ["small", 1],
    ]);
    expect(out.newlyRefused[0]).toMatchObject({
      keyId: "big",
      clientIp: null,
      requests: 10,
      currentRefused: 2,
      candidateRefused: 9,
    });
    const capped = aggregate(
      { fromMs: T0, toMs: T0 + MIN },
      requests,
      Uint8Array.from(current),
      Uint8Array.from(candidate),
      2,
    );
    expect(capped.newlyRefused.map((c) => c.keyId)).toEqual(["big", "tied-b"]);
  });
});
