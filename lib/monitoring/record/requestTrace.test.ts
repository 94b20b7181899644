import { describe, expect, it } from "vitest";
import { decisionOf, ruleResult } from "@/test/support/decisions";
import { DecisionBatch } from "./decisionBatch";
import { flushCommands, traceChunks } from "./flushCommands";
import { monitoringKeys, RETENTION_MS } from "./monitoringKeys";
import { parseTraceFields, TRACE_MAX_AGE_MS, traceEntry, traceFields } from "./requestTrace";

const T = "Tenant01";
/** An injected time, never the clock. */
const NOW = Date.UTC(2026, 0, 1, 10, 0, 0);
const request = { tenantId: T, keyId: "KeyId001", ip: "192.0.2.7", method: "POST", path: "/api/v1/echo/a" };

describe("traceEntry", () => {
  it("takes the limiter's time, the units charged, and the enforce rule that refused", () => {
    const admitted = traceEntry(
      request,
      decisionOf([ruleResult({ name: "a", cost: 2 }), ruleResult({ name: "b", cost: 3 })], NOW - 5),
      NOW,
    );
    expect(admitted).toMatchObject({ atMs: NOW - 5, cost: 5, decision: "allowed", refusedBy: null, ip: "192.0.2.7" });
    const refused = traceEntry(
      request,
      decisionOf([ruleResult({ name: "a" }), ruleResult({ name: "b" }, { allowed: false })], NOW),
      NOW,
    );
    expect(refused).toMatchObject({ cost: 0, decision: "refused", refusedBy: "b" });
    const closed = traceEntry(
      request,
      decisionOf([ruleResult({ name: "c", failMode: "closed" }, { allowed: false, source: "fail_closed" })], NOW),
      NOW,
    );
    expect(closed.decision).toBe("unavailable");
  });

  it("uses the recorder's time when no rule matched", () => {
    expect(traceEntry(request, null, NOW)).toMatchObject({ atMs: NOW, cost: 0, decision: "allowed", refusedBy: null });
  });

  it("round-trips through the stream's field list; malformed entries read as null", () => {
    const entry = traceEntry(
      { ...request, ip: undefined },
      decisionOf([ruleResult({ name: "a" }, { allowed: false })], NOW),
      NOW,
    );
    expect(parseTraceFields(T, traceFields(entry))).toEqual(entry);
    const spaced = { ...entry, path: "/api/v1/a b" };
    expect(parseTraceFields(T, traceFields(spaced))).toEqual(spaced);
    for (const tier of ["pro", undefined]) {
      const tiered = traceEntry({ ...request, keyId: "~alice", ...(tier ? { tier } : {}) }, null, NOW);
      expect(tiered.tier).toBe(tier);
      expect(parseTraceFields(T, traceFields(tiered))).toEqual(tiered);
    }
    expect(parseTraceFields(T, ["e", `${NOW} -^free - GET 0 1 - /`])).toMatchObject({ keyId: null, tier: "free" });
    expect(parseTraceFields(T, ["e", "x - - GET 0 1 - /"])).toBeNull();
    expect(parseTraceFields(T, ["e", `${NOW} - - GET 0 ? - /`])).toBeNull();
    expect(parseTraceFields(T, ["e", `${NOW} - - GET 0 1`])).toBeNull();
    expect(parseTraceFields(T, ["x", `${NOW} - - GET 0 1 - /`])).toBeNull();
    expect(parseTraceFields(T, "nope")).toBeNull();
  });
});

describe("the trace in the flush", () => {
  it("appends each request of a real tenant to its stream, capped by length and age, with a TTL", () => {
    const batch = new DecisionBatch();
    batch.addRequest({ ...request, decision: decisionOf([ruleResult({ name: "a" })], NOW - 10) }, NOW);
    batch.addRequest({ ...request, decision: null }, NOW);
    batch.addRequest({ tenantId: "-anon", ip: "192.0.2.8", method: "GET", path: "/api/v1/echo", decision: null }, NOW);
    const key = monitoringKeys("p:", T).trace();
    const chunks = [...traceChunks(batch.trace, "p:", 5_000)];
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ key, maxLen: 5_000, minId: NOW - TRACE_MAX_AGE_MS, ttlMs: RETENTION_MS });
    expect(chunks[0]!.values).toHaveLength(2);
    expect(chunks[0]!.values[0]!.startsWith(`${NOW - 10} KeyId001 192.0.2.7 POST 1 1 - /api/v1/echo/a`)).toBe(true);
    // The pseudo-tenant of unauthenticated requests has no trace, and the trace is not in the flush's one transaction.
    expect([...batch.trace.byTenant.keys()]).toEqual([T]);
    expect([...flushCommands(batch, "p:").values()].flat().filter(([c]) => c === "XADD" || c === "XTRIM")).toEqual([]);
  });

  it("writes the trace in chunks, each with its trim and TTL, only the newest traceMaxLen entries", () => {
    const batch = new DecisionBatch();
    for (let i = 0; i < 7; i++) batch.addRequest({ ...request, path: `/api/v1/echo/${i}`, decision: null }, NOW + i);
    const chunks = [...traceChunks(batch.trace, "p:", 5, 2)];
    expect(chunks.map((c) => c.values.length)).toEqual([2, 2, 1]);
    expect(chunks.flatMap((c) => c.values).map((v) => v.split(" ").at(-1))).toEqual([
      "/api/v1/echo/2",
      "/api/v1/echo/3",
      "/api/v1/echo/4",
      "/api/v1/echo/5",
      "/api/v1/echo/6",
    ]);
    for (const chunk of chunks)
      expect(chunk).toMatchObject({ maxLen: 5, minId: NOW + 6 - TRACE_MAX_AGE_MS, ttlMs: RETENTION_MS });
  });

  it("keeps at most maxTrace entries per flush, counting the rest as overflow", () => {
    const batch = new DecisionBatch({ maxCells: 100, maxClients: 100, maxLows: 100, maxRecent: 100, maxTrace: 2 });
    for (let i = 0; i < 5; i++) batch.addRequest({ ...request, decision: null }, NOW + i);
    expect(batch.trace.size).toBe(2);
    expect(batch.overflow).toBe(3);
  });
});
