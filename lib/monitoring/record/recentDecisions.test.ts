import { describe, expect, it } from "vitest";
import { decisionOf, ruleResult } from "@/test/support/decisions";
import {
  MAX_PATH_CHARS,
  parseRecentDecision,
  RecentBuffer,
  recentDecision,
  type RecentDecision,
} from "./recentDecisions";

const AT = Date.UTC(2026, 0, 1, 12, 0, 0);

describe("recentDecision", () => {
  it("a request no rule matched: admitted, nothing refused, no remaining", () => {
    expect(recentDecision(null, "GET", "/api/v1/echo", AT)).toEqual({
      atMs: AT,
      method: "GET",
      path: "/api/v1/echo",
      allowed: true,
      unavailable: false,
      shadowRefused: [],
      refusedBy: null,
      remaining: null,
    });
  });

  it("names the shadow rules that would have refused, apart from the refusal", () => {
    const d = decisionOf([
      ruleResult({ name: "a" }, { remaining: 4 }),
      ruleResult({ name: "trial", mode: "shadow" }, { allowed: false }),
      ruleResult({ name: "trial2", mode: "shadow" }, { allowed: false }),
    ]);
    expect(recentDecision(d, "GET", "/p", AT)).toMatchObject({
      allowed: true,
      shadowRefused: ["trial", "trial2"],
      refusedBy: null,
      remaining: 4,
    });
  });

  it("refusedBy is the enforce rule that holds the request back longest (first on a tie)", () => {
    const d = decisionOf([
      ruleResult({ name: "short" }, { allowed: false, retryAfterMs: 500 }),
      ruleResult({ name: "long" }, { allowed: false, retryAfterMs: 9_000 }),
      ruleResult({ name: "long-too" }, { allowed: false, retryAfterMs: 9_000 }),
    ]);
    expect(recentDecision(d, "GET", "/p", AT)).toMatchObject({ allowed: false, refusedBy: "long" });
  });

  it("remaining is the lowest over enforce rules with real quota (not shadow, not fail-open)", () => {
    const d = decisionOf([
      ruleResult({ name: "a" }, { remaining: 7 }),
      ruleResult({ name: "b" }, { remaining: 3 }),
      ruleResult({ name: "s", mode: "shadow" }, { remaining: 0 }),
      ruleResult({ name: "o" }, { remaining: 1, source: "fail_open" }),
    ]);
    expect(recentDecision(d, "GET", "/p", AT).remaining).toBe(3);
    expect(
      recentDecision(decisionOf([ruleResult({ name: "o" }, { source: "fail_open" })]), "GET", "/p", AT).remaining,
    ).toBeNull();
  });

  it("a closed rule's outage is a refusal marked unavailable", () => {
    const d = decisionOf([
      ruleResult({ name: "c", failMode: "closed" }, { allowed: false, source: "fail_closed", remaining: 0 }),
    ]);
    expect(recentDecision(d, "GET", "/p", AT)).toMatchObject({
      allowed: false,
      unavailable: true,
      refusedBy: "c",
      remaining: null,
    });
  });

  it(`cuts the path to ${MAX_PATH_CHARS} characters`, () => {
    const path = "/api/v1/echo/" + "x".repeat(500);
    expect(recentDecision(null, "GET", path, AT).path).toBe(path.slice(0, MAX_PATH_CHARS));
  });
});

describe("the answer's status (issue 31: a 502 listed as plain 'allowed')", () => {
  it("is written with the entry once known, and left out while the request is in flight", () => {
    const answered = { status: null as number | null };
    const entry = recentDecision(null, "GET", "/api/v1/orders", 5, answered);
    expect(JSON.parse(JSON.stringify(entry))).not.toHaveProperty("status");
    answered.status = 502;
    const stored = JSON.stringify(entry);
    expect(JSON.parse(stored)).toMatchObject({ allowed: true, status: 502 });
    expect(parseRecentDecision(stored)).toMatchObject({ allowed: true, status: 502 });
    expect(parseRecentDecision(JSON.stringify({ ...JSON.parse(stored), status: "502" }))).toBeNull();
  });
});

describe("parseRecentDecision", () => {
  const good: RecentDecision = {
    atMs: AT,
    method: "GET",
    path: "/p",
    allowed: false,
    unavailable: false,
    shadowRefused: ["t"],
    refusedBy: "r",
    remaining: 0,
  };

  it("reads back what was stored", () => {
    expect(parseRecentDecision(JSON.stringify(good))).toEqual(good);
    expect(parseRecentDecision(JSON.stringify({ ...good, refusedBy: null, remaining: null }))).toEqual({
      ...good,
      refusedBy: null,
      remaining: null,
    });
  });

  it("drops extra fields", () => {
    expect(parseRecentDecision(JSON.stringify({ ...good, secret: "x" }))).toEqual(good);
  });

  it.each([
    ["not JSON", "{"],
    ["not a string", 42],
    ["null", "null"],
    ["atMs missing", JSON.stringify({ ...good, atMs: undefined })],
    ["allowed not a boolean", JSON.stringify({ ...good, allowed: "yes" })],
    ["shadowRefused not names", JSON.stringify({ ...good, shadowRefused: [1] })],
    ["remaining not a number", JSON.stringify({ ...good, remaining: "3" })],
  ])("reads %s as null", (_label, raw) => {
    expect(parseRecentDecision(raw)).toBeNull();
  });
});

describe("RecentBuffer", () => {
  const entry = (atMs: number) => recentDecision(null, "GET", "/p", atMs);

  it("keeps the newest perKey entries of each key", () => {
    const buffer = new RecentBuffer(3, 100);
    for (let i = 0; i < 5; i++) buffer.add("T", "K", entry(i));
    expect(buffer.keys.get("T\nK")!.entries.map((e) => e.atMs)).toEqual([2, 3, 4]);
    expect(buffer.size).toBe(3);
  });

  it("at maxEntries refuses new keys, and known keys keep rotating their newest entries", () => {
    const buffer = new RecentBuffer(10, 2);
    expect(buffer.add("T", "K1", entry(1))).toBe(true);
    expect(buffer.add("T", "K1", entry(2))).toBe(true);
    expect(buffer.add("T", "K2", entry(3))).toBe(false);
    expect(buffer.add("T", "K1", entry(4))).toBe(true);
    expect(buffer.size).toBe(2);
    expect(buffer.keys.get("T\nK1")!.entries.map((e) => e.atMs)).toEqual([2, 4]);
    expect(buffer.keys.has("T\nK2")).toBe(false);
  });
});
