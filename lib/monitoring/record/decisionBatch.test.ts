import { describe, expect, it } from "vitest";
import { decisionOf, ruleResult } from "@/test/support/decisions";
import { DecisionBatch, type RecordedRequest } from "./decisionBatch";
import { RECENT_DECISIONS_KEPT } from "./monitoringKeys";

const T = "Tenant01";
const K = "KeyId001";
/** 2026-01-01T00:00:00Z plus a few seconds: an injected clock, never the real one. */
const NOW = Date.UTC(2026, 0, 1, 0, 0, 0);
const SECOND = Math.floor(NOW / 1000);
const MINUTE = Math.floor(NOW / 60_000);

const enforce = { name: "per-key", ref: "1" };
const other = { name: "burst", ref: "2" };
const shadow = { name: "trial", ref: "3", mode: "shadow" as const };

function request(decision: RecordedRequest["decision"], over: Partial<RecordedRequest> = {}): RecordedRequest {
  return { tenantId: T, keyId: K, decision, method: "GET", path: "/api/v1/echo", ...over };
}

const cell = (batch: DecisionBatch, ref: string, second = SECOND) => batch.cells.get(`${T}\n${ref}\n${second}`);

describe("DecisionBatch: series cells keep allowed, refused and shadow-refused apart", () => {
  it.each([
    [
      "admitted by every rule",
      [ruleResult(enforce), ruleResult(shadow)],
      { total: [1, 0, 0], enforce: [1, 0, 0], shadow: [1, 0, 0] },
    ],
    [
      "refused by an enforce rule",
      [ruleResult(enforce, { allowed: false }), ruleResult(shadow)],
      { total: [0, 1, 0], enforce: [0, 1, 0], shadow: [1, 0, 0] },
    ],
    [
      "admitted while a shadow rule would refuse",
      [ruleResult(enforce), ruleResult(shadow, { allowed: false })],
      { total: [1, 0, 1], enforce: [1, 0, 0], shadow: [0, 0, 1] },
    ],
    [
      "refused, and a shadow rule would refuse too (counted once, as a refusal)",
      [ruleResult(enforce, { allowed: false }), ruleResult(shadow, { allowed: false })],
      { total: [0, 1, 0], enforce: [0, 1, 0], shadow: [0, 0, 1] },
    ],
  ])("%s", (_label, results, want) => {
    const batch = new DecisionBatch();
    batch.addRequest(request(decisionOf(results)), NOW);
    const counts = (ref: string) => {
      const c = cell(batch, ref);
      return c ? [c.a, c.r, c.s] : undefined;
    };
    expect(counts("*")).toEqual(want.total);
    expect(counts("1")).toEqual(want.enforce);
    expect(counts("3")).toEqual(want.shadow);
  });

  it("a request no rule matched is admitted traffic of the tenant, with no rule cell", () => {
    const batch = new DecisionBatch();
    batch.addRequest(request(null), NOW);
    expect(cell(batch, "*")).toMatchObject({ a: 1, r: 0, s: 0 });
    expect(batch.cells.size).toBe(1);
  });

  it("a 503 under a closed rule is a refusal", () => {
    const batch = new DecisionBatch();
    batch.addRequest(
      request(decisionOf([ruleResult({ ...enforce, failMode: "closed" }, { allowed: false, source: "fail_closed" })])),
      NOW,
    );
    expect(cell(batch, "*")).toMatchObject({ a: 0, r: 1 });
  });

  it("cells are per second: decisions of two seconds make two cells, of one second add up", () => {
    const batch = new DecisionBatch();
    const d = decisionOf([ruleResult(enforce)]);
    batch.addRequest(request(d), NOW);
    batch.addRequest(request(d), NOW + 999);
    batch.addRequest(request(d), NOW + 1000);
    expect(cell(batch, "*")?.a).toBe(2);
    expect(cell(batch, "*", SECOND + 1)?.a).toBe(1);
  });

  it("a check decision adds its rule cell only (the request itself is recorded by addRequest)", () => {
    const batch = new DecisionBatch();
    batch.addCheck(
      T,
      decisionOf([ruleResult({ name: "per-user", ref: "4", scope: "identifier" }, { allowed: false })]),
      NOW,
    );
    expect(cell(batch, "4")).toMatchObject({ a: 0, r: 1, s: 0 });
    expect(cell(batch, "*")).toBeUndefined();
    expect(batch.clients.size).toBe(0);
  });
});

describe("DecisionBatch: clients and near-limit marks", () => {
  it("counts a key's requests and refusals per minute, refusals also per refusing enforce rule", () => {
    const batch = new DecisionBatch();
    batch.addRequest(request(decisionOf([ruleResult(enforce), ruleResult(other)])), NOW);
    batch.addRequest(request(decisionOf([ruleResult(enforce, { allowed: false }), ruleResult(other)])), NOW + 1);
    batch.addRequest(request(decisionOf([ruleResult(enforce), ruleResult(shadow, { allowed: false })])), NOW + 2);
    batch.addRequest(request(decisionOf([ruleResult(enforce)])), NOW + 60_000);
    const first = batch.clients.get(`${T}\n${K}\n${MINUTE}`)!;
    expect(first).toMatchObject({ requests: 3, refused: 1 });
    expect([...first.refusedByRule]).toEqual([["1", 1]]);
    expect(batch.clients.get(`${T}\n${K}\n${MINUTE + 1}`)).toMatchObject({ requests: 1, refused: 0 });
  });

  it("requests without a key (unauthenticated) make no client, mark or recent entry", () => {
    const batch = new DecisionBatch();
    batch.addRequest(
      request(decisionOf([ruleResult(enforce, { allowed: false })]), { tenantId: "-anon", keyId: undefined }),
      NOW,
    );
    expect(batch.clients.size + batch.lows.size + batch.recent.size).toBe(0);
    expect(batch.cells.size).toBe(2);
  });

  it("keeps the lowest remaining/capacity per key, rule and minute; a refusing rule marks 0", () => {
    const batch = new DecisionBatch();
    batch.addRequest(request(decisionOf([ruleResult({ ...enforce, limit: 10 }, { remaining: 6 })])), NOW);
    batch.addRequest(request(decisionOf([ruleResult({ ...enforce, limit: 10 }, { remaining: 3 })])), NOW + 1);
    batch.addRequest(request(decisionOf([ruleResult({ ...enforce, limit: 10 }, { remaining: 8 })])), NOW + 2);
    expect([...batch.lows.values()].map((l) => [l.ref, l.capacity, l.fraction])).toEqual([["1", 10, 0.3]]);
    // A cost-5 request refused with 3 units left: the key is at its limit.
    batch.addRequest(
      request(decisionOf([ruleResult({ ...enforce, limit: 10, cost: 5 }, { allowed: false, remaining: 3 })])),
      NOW + 3,
    );
    expect([...batch.lows.values()][0]!.fraction).toBe(0);
  });

  it("capacity is burst for token_bucket and gcra, limit for the window algorithms", () => {
    const batch = new DecisionBatch();
    batch.addRequest(
      request(
        decisionOf([
          ruleResult({ name: "tb", ref: "5", algorithm: "token_bucket", limit: 10, burst: 40 }, { remaining: 10 }),
          ruleResult({ name: "fw", ref: "6", algorithm: "fixed_window", limit: 10, burst: 40 }, { remaining: 5 }),
        ]),
      ),
      NOW,
    );
    expect(Object.fromEntries([...batch.lows.values()].map((l) => [l.ref, [l.capacity, l.fraction]]))).toEqual({
      "5": [40, 0.25],
      "6": [10, 0.5],
    });
  });

  it("shadow rules and fail-open or fail-closed results leave no near-limit mark", () => {
    const batch = new DecisionBatch();
    batch.addRequest(
      request(
        decisionOf([
          ruleResult(shadow, { remaining: 0, allowed: false }),
          ruleResult(enforce, { source: "fail_open", remaining: 10 }),
          ruleResult({ ...other, failMode: "local" }, { source: "fail_local", remaining: 2 }),
        ]),
      ),
      NOW,
    );
    expect([...batch.lows.values()].map((l) => l.ref)).toEqual(["2"]);
  });
});

describe("DecisionBatch: recent decisions of a key", () => {
  it("records method, path and outcome of each keyed request, oldest first", () => {
    const batch = new DecisionBatch();
    batch.addRequest(request(null, { method: "POST", path: "/api/v1/echo/a" }), NOW);
    batch.addRequest(request(decisionOf([ruleResult(enforce, { allowed: false, remaining: 0 })])), NOW + 5);
    const entries = batch.recent.keys.get(`${T}\n${K}`)!.entries;
    expect(entries).toEqual([
      {
        atMs: NOW,
        method: "POST",
        path: "/api/v1/echo/a",
        allowed: true,
        unavailable: false,
        shadowRefused: [],
        refusedBy: null,
        remaining: null,
      },
      {
        atMs: NOW + 5,
        method: "GET",
        path: "/api/v1/echo",
        allowed: false,
        unavailable: false,
        shadowRefused: [],
        refusedBy: "per-key",
        remaining: 0,
      },
    ]);
  });

  it(`keeps only the newest ${RECENT_DECISIONS_KEPT} of a key within one flush interval`, () => {
    const batch = new DecisionBatch();
    for (let i = 0; i < RECENT_DECISIONS_KEPT + 7; i++) batch.addRequest(request(null), NOW + i);
    const entries = batch.recent.keys.get(`${T}\n${K}`)!.entries;
    expect(entries).toHaveLength(RECENT_DECISIONS_KEPT);
    expect(entries[0]!.atMs).toBe(NOW + 7);
    expect(entries.at(-1)!.atMs).toBe(NOW + RECENT_DECISIONS_KEPT + 6);
    expect(batch.overflow).toBe(0);
  });
});

describe("DecisionBatch: bounds", () => {
  it("past maxCells new cells are counted as overflow while existing ones keep counting", () => {
    const batch = new DecisionBatch({ maxCells: 2, maxClients: 10, maxLows: 10, maxRecent: 10, maxTrace: 10 });
    const d = decisionOf([ruleResult(enforce), ruleResult(other)]);
    batch.addRequest(request(d), NOW);
    batch.addRequest(request(d), NOW);
    expect(batch.cells.size).toBe(2);
    expect(cell(batch, "*")?.a).toBe(2);
    expect(cell(batch, "1")?.a).toBe(2);
    expect(batch.overflow).toBe(2); // rule "2" twice
  });

  it("past maxClients, maxLows and maxRecent new keys are overflow", () => {
    const batch = new DecisionBatch({ maxCells: 100, maxClients: 1, maxLows: 1, maxRecent: 1, maxTrace: 100 });
    const d = decisionOf([ruleResult(enforce)]);
    batch.addRequest(request(d, { keyId: "KeyId001" }), NOW);
    batch.addRequest(request(d, { keyId: "KeyId002" }), NOW);
    expect([batch.clients.size, batch.lows.size, batch.recent.size]).toEqual([1, 1, 1]);
    expect(batch.overflow).toBe(3);
  });

  it("ids and refs that cannot be part of a Redis key are skipped and counted", () => {
    const batch = new DecisionBatch();
    batch.addRequest(request(null, { tenantId: "bad{tag}" }), NOW);
    batch.addRequest(request(null, { keyId: "bad key" }), NOW);
    batch.addRequest(request(decisionOf([ruleResult({ name: "x", ref: "Bad Ref!" })])), NOW);
    expect(batch.overflow).toBe(3);
    expect([...batch.cells.values()].map((c) => c.ref)).toEqual(["*"]);
  });
});

describe("DecisionBatch: hot callers are keys, JWT subjects and anonymous addresses", () => {
  const refused = decisionOf([ruleResult(enforce, { allowed: false })]);

  it("each caller's requests and refusals (per refusing rule) under its member", () => {
    const batch = new DecisionBatch();
    batch.addRequest(request(null, { keyId: "~alice@example.com" }), NOW);
    batch.addRequest(request(refused, { keyId: "~alice@example.com" }), NOW);
    batch.addRequest(request(refused, { keyId: undefined, ip: "203.0.113.7" }), NOW);
    const stats = (member: string) => {
      const c = batch.clients.get(`${T}\n${member}\n${MINUTE}`);
      return c && [c.requests, c.refused, Object.fromEntries(c.refusedByRule)];
    };
    expect(stats("~alice@example.com")).toEqual([2, 1, { "1": 1 }]);
    expect(stats("@203.0.113.7")).toEqual([1, 1, { "1": 1 }]);
    expect(cell(batch, "*")).toMatchObject({ a: 1, r: 2 });
    expect(batch.overflow).toBe(0);
  });

  it("near-limit marks, recent decisions and the trace stay an API key's", () => {
    const batch = new DecisionBatch();
    batch.addRequest(request(refused, { keyId: "~alice" }), NOW);
    batch.addRequest(request(refused, { keyId: undefined, ip: "203.0.113.7" }), NOW);
    expect([batch.lows.size, batch.recent.size, batch.trace.size]).toEqual([0, 0, 0]);
    batch.addRequest(request(refused), NOW);
    expect([batch.lows.size, batch.recent.size, batch.trace.size]).toEqual([1, 1, 1]);
  });

  it("an unauthenticated request of a pseudo-tenant is no caller", () => {
    const batch = new DecisionBatch();
    batch.addRequest(request(refused, { tenantId: "-anon", keyId: undefined, ip: "203.0.113.7" }), NOW);
    expect(batch.clients.size).toBe(0);
  });
});

describe("DecisionBatch: hot descriptors of Envoy's calls", () => {
  const perAddress = { name: "per-address", ref: "4", scope: "descriptor" as const, descriptorSlot: "0:4" };
  const whole = { name: "whole-api", ref: "5", scope: "descriptor" as const, descriptorSlot: "1:5" };
  const stats = (batch: DecisionBatch) =>
    [...batch.descriptors.stats.values()].map((d) => [JSON.parse(d.member), d.requests, d.refused]);

  it("each descriptor rule's subject: calls, and the calls that rule refused", () => {
    const batch = new DecisionBatch();
    const attributes = { "0:4": "10.0.0.7", "1:5": "=" };
    batch.addCheck(T, decisionOf([ruleResult(perAddress), ruleResult(whole)]), NOW, undefined, attributes);
    batch.addCheck(
      T,
      decisionOf([ruleResult(perAddress, { allowed: false }), ruleResult(whole)]),
      NOW,
      undefined,
      attributes,
    );
    expect(stats(batch)).toEqual([
      [[T, "4", "10.0.0.7"], 2, 1],
      [[T, "5", "="], 2, 0],
    ]);
  });

  it("a shadow rule's would-refuse is no refusal; a value over 256 characters and other scopes are not kept", () => {
    const batch = new DecisionBatch();
    batch.addCheck(
      T,
      decisionOf([
        ruleResult({ ...perAddress, mode: "shadow" }, { allowed: false }),
        ruleResult({ name: "k", ref: "6" }),
      ]),
      NOW,
      undefined,
      { "0:4": "10.0.0.7" },
    );
    batch.addCheck(T, decisionOf([ruleResult(perAddress)]), NOW, undefined, { "0:4": "x".repeat(257) });
    batch.addCheck(T, decisionOf([ruleResult(perAddress)]), NOW, "an-identifier");
    expect(stats(batch)).toEqual([[[T, "4", "10.0.0.7"], 1, 0]]);
  });
});

describe("DecisionBatch: subjects refused, for limited right now", () => {
  const limited = (batch: DecisionBatch) =>
    [...batch.limited.values()].map((m) => [m.subject.scope, m.subject.value, m.subject.ref, m.refused, m.lastMs]);

  it("each refusing enforce rule marks the subject its scope counts, with refusals and the latest time", () => {
    const batch = new DecisionBatch();
    const refused = decisionOf([
      ruleResult(enforce, { allowed: false }),
      ruleResult({ ...other, scope: "ip" }, { allowed: false }),
      ruleResult(shadow, { allowed: false }),
    ]);
    batch.addRequest(request(refused, { ip: "10.0.0.1" }), NOW);
    batch.addRequest(request(refused, { ip: "10.0.0.1" }), NOW + 500);
    expect(limited(batch)).toEqual([
      ["key", K, "1", 2, NOW + 500],
      ["ip", "10.0.0.1", "2", 2, NOW + 500],
    ]);
  });

  it("admitted requests, fail-closed outages and shadow refusals mark nobody", () => {
    const batch = new DecisionBatch();
    batch.addRequest(request(decisionOf([ruleResult(enforce)])), NOW);
    batch.addRequest(
      request(decisionOf([ruleResult({ ...enforce, failMode: "closed" }, { allowed: false, source: "fail_closed" })])),
      NOW,
    );
    batch.addRequest(request(decisionOf([ruleResult(enforce), ruleResult(shadow, { allowed: false })])), NOW);
    expect(batch.limited.size).toBe(0);
  });

  it("a refused check marks its identifier, whatever characters it holds", () => {
    const batch = new DecisionBatch();
    batch.addCheck(
      T,
      decisionOf([ruleResult({ name: "per-caller", ref: "4", scope: "identifier" }, { allowed: false })]),
      NOW,
      'a/"b"\n',
    );
    expect(limited(batch)).toEqual([["identifier", 'a/"b"\n', "4", 1, NOW]]);
  });
});

describe("ShouldRateLimit decisions (Envoy's rate limit service)", () => {
  const limited = (batch: DecisionBatch) =>
    [...batch.limited.values()].map((m) => [m.subject.scope, m.subject.value, m.subject.ref, m.refused, m.lastMs]);

  it("a refused descriptor rule marks its descriptor subject; one too long to show is left out", () => {
    const batch = new DecisionBatch();
    const rule = { name: "per-address", ref: "6", scope: "descriptor" as const };
    batch.addCheck(
      T,
      decisionOf([
        ruleResult({ ...rule, descriptorSlot: "0:6" }, { allowed: false }),
        ruleResult({ ...rule, descriptorSlot: "1:6" }, { allowed: false }),
      ]),
      NOW,
      undefined,
      { "0:6": "10.0.0.1", "1:6": "x".repeat(300) },
    );
    expect(limited(batch)).toEqual([["descriptor", "10.0.0.1", "6", 1, NOW]]);
    expect(cell(batch, "6")).toBeDefined();
  });
});
