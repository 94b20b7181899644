import { describe, expect, it } from "vitest";
import { counterKey, penaltyKey } from "./keys";
import { ALGORITHMS, type LimiterRule } from "./types";
import { identifierCounterKeys, keyCounterKeys } from "./counterReset";

const rule = (
  name: string,
  ref: string,
  scope: LimiterRule["scope"],
  algorithm: LimiterRule["algorithm"] = "sliding_window",
): LimiterRule => ({
  name,
  ref,
  scope,
  algorithm,
  limit: 10,
  windowMs: 60_000,
  burst: 10,
  cost: 1,
  blockMs: 0,
  failMode: "open",
  mode: "enforce",
});

const T = "Tenant01";
const K = "KeyId001";

describe("counters charged to a key", () => {
  it("are the key-scoped rules' counters, under every algorithm's name, as the key builder names them", () => {
    const perKey = rule("per-key", "1", "key", "gcra");
    const names = keyCounterKeys(
      "p:",
      [perKey, rule("tenant-total", "2", "tenant"), rule("per-ip", "3", "ip"), rule("checked", "4", "identifier")],
      T,
      K,
    );
    const expected = new Set(
      ALGORITHMS.map((algorithm) => counterKey("p:", { ...perKey, algorithm }, { tenantId: T, keyId: K })),
    );
    // Exactly those, once each: no tenant, ip or identifier counter is named (they are shared).
    expect(new Set(names)).toEqual(expected);
    expect(names).toHaveLength(expected.size);
  });

  it("name each counter once when rules share a ref or a subject key", () => {
    const names = keyCounterKeys(
      "p:",
      [rule("per-key", "1", "key"), rule("per-key", "1", "key", "token_bucket"), rule("other", "5", "key")],
      T,
      K,
    );
    expect(names).toHaveLength(new Set(names).size);
    expect(names).toContain(counterKey("p:", rule("other", "5", "key", "sliding_log"), { tenantId: T, keyId: K }));
  });

  it("include the key holding its penalties, for a sliding_log rule too (a reset lifts a penalty)", () => {
    const log = { ...rule("per-key", "1", "key", "sliding_log"), blockMs: 60_000 };
    expect(keyCounterKeys("p:", [log], T, K)).toContain(penaltyKey("p:", log, { tenantId: T, keyId: K }));
  });

  it("are none for a key no key-scoped rule applies to", () => {
    expect(keyCounterKeys("p:", [rule("tenant-total", "2", "tenant")], T, K)).toEqual([]);
  });
});

describe("counters of one identifier", () => {
  it("are that identifier's counters of the rule, long identifiers hashed by the builder", () => {
    const checked = rule("checked", "4", "identifier");
    const long = "x".repeat(300);
    const names = identifierCounterKeys("p:", checked, T, long);
    expect(names).toContain(counterKey("p:", checked, { tenantId: T, identifier: long }));
    expect(names.every((n) => n.length < 80)).toBe(true);
    expect(names).toContain(
      penaltyKey("p:", { ...checked, algorithm: "sliding_log", blockMs: 1000 }, { tenantId: T, identifier: long }),
    );
  });

  it("refuse a rule of another scope (a caller bug)", () => {
    expect(() => identifierCounterKeys("p:", rule("per-key", "1", "key"), T, "x")).toThrow(/not identifier/);
  });
});
