import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors";
import type { MonitoringDirectory } from "./monitoringDirectory";
import { hotKeysInput, nearLimitInput, recentDecisionsInput, refusalRateInput, trafficInput } from "./monitoringParams";

const NOW = Date.UTC(2026, 0, 1, 10, 20, 30, 400);
const MIN = 60_000;
const HOUR = 3_600_000;
const T = "Tenant01";

const directory: MonitoringDirectory = {
  tenantName: () => null,
  keyName: () => null,
  describeRules: async () => new Map(),
  refOf: async (tenantId, name) => (tenantId === T && name === "per-key" ? "1" : null),
  keyTenant: async () => null,
};

const q = (query: string) => new URLSearchParams(query);

/** The AppError a call throws (sync or async), or fails the test. */
async function rejection(call: () => unknown): Promise<AppError> {
  try {
    await call();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("time windows", () => {
  it.each([
    ["", 5 * MIN, 30_000],
    ["range=1m", MIN, 5_000],
    ["range=5m", 5 * MIN, 30_000],
    ["range=15m", 15 * MIN, MIN],
    ["range=1h", HOUR, MIN],
    ["range=24h", 24 * HOUR, 5 * MIN],
  ])("?%s ends now and has its preset step", async (query, span, step) => {
    const input = await trafficInput(q(query), NOW, directory);
    expect(input).toEqual({ tenantId: undefined, ruleRef: undefined, fromMs: NOW - span, toMs: NOW, stepMs: step });
  });

  it.each([
    [MIN, 5_000],
    [4 * MIN, 30_000],
    [30 * MIN, MIN],
    [3 * HOUR, 5 * MIN],
  ])("a from window of %i ms gets step %i by default; to defaults to now", (span, step) => {
    const input = refusalRateInput(q(`from=${NOW - span}`), NOW);
    expect(input).toMatchObject({ fromMs: NOW - span, toMs: NOW, stepMs: step });
  });

  it("step, to, tenantId and limit are taken as given", () => {
    expect(refusalRateInput(q(`range=1h&to=${NOW - HOUR}&step=120000&tenantId=${T}&limit=3`), NOW)).toEqual({
      tenantId: T,
      limit: 3,
      fromMs: NOW - 2 * HOUR,
      toMs: NOW - HOUR,
      stepMs: 120_000,
    });
    expect(hotKeysInput(q("tenantId=-anon"), NOW)).toEqual({
      tenantId: "-anon",
      limit: undefined,
      fromMs: NOW - 5 * MIN,
      toMs: NOW,
    });
  });

  it("a rule is named and resolved to its ref; it needs a tenantId", async () => {
    expect(await trafficInput(q(`tenantId=${T}&rule=per-key`), NOW, directory)).toMatchObject({
      tenantId: T,
      ruleRef: "1",
    });
    const missing = await rejection(() => trafficInput(q(`tenantId=${T}&rule=nope`), NOW, directory));
    expect(missing.code).toBe("not_found");
    expect(missing.message).toContain('"nope"');
    const orphan = await rejection(() => trafficInput(q("rule=per-key"), NOW, directory));
    expect(orphan.extra.errors).toEqual({ rule: ["rule needs a tenantId"] });
  });
});

describe("422s name the parameter as given", () => {
  it.each([
    ["traffic", "range=2h", { range: ["range must be one of 1m, 5m, 15m, 1h, 6h, 24h"] }],
    ["traffic", "from=abc", { from: ["from must be a number"] }],
    ["traffic", "from=", { from: ["from must be a number"] }],
    ["traffic", "tenantId=nope", { tenantId: ["tenantId must be a tenant id"] }],
    ["traffic", "limit=5", { limit: [expect.stringContaining("limit is not a parameter of this query")] }],
    ["traffic", "range=1h&range=5m", { range: ["range must be given once"] }],
    ["traffic", `range=1h&from=${NOW - MIN}`, { from: ["give either range or from, not both"] }],
    ["traffic", `from=${NOW}&to=${NOW - MIN}`, { to: ["to must be after from"] }],
    ["traffic", `from=${NOW - 25 * HOUR}`, { from: ["the range must be at most 24 h"] }],
    ["traffic", `from=${NOW - 1.5}`, { from: ["from must be a whole number of milliseconds"] }],
    ["traffic", "step=500", { step: ["step must be at least 1000"] }],
    ["traffic", "step=1500", { step: ["step must be a whole number of seconds"] }],
    [
      "traffic",
      "range=24h&step=30000",
      {
        step: [
          "step is too small for this range: at most 1440 points",
          "for a range over 1 h, step must be a whole number of minutes",
        ],
      },
    ],
    ["refusal-rate", "limit=0", { limit: ["limit must be at least 1"] }],
    ["refusal-rate", "limit=51", { limit: ["limit must be at most 50"] }],
    ["hot-keys", "limit=101", { limit: ["limit must be at most 100"] }],
    ["hot-keys", "step=5000", { step: [expect.stringContaining("step is not a parameter of this query")] }],
    ["near-limit", "limit=2.5", { limit: ["limit must be a whole number"] }],
  ])("%s ?%s", async (route, query, errors) => {
    const call = {
      traffic: () => trafficInput(q(query), NOW, directory),
      "refusal-rate": () => refusalRateInput(q(query), NOW),
      "hot-keys": () => hotKeysInput(q(query), NOW),
      "near-limit": () => nearLimitInput(q(query), NOW),
    }[route]!;
    const error = await rejection(call);
    expect(error.code).toBe("invalid");
    expect(error.status).toBe(422);
    expect(error.extra.errors).toEqual(errors);
    const [field] = Object.keys(errors);
    expect(error.message).toMatch(new RegExp(`^The input is invalid \\(${field}: `));
  });
});

describe("recent decisions", () => {
  it("limit defaults to 50 and may be 1 to 50", () => {
    expect(recentDecisionsInput("KeyId001", q(""))).toEqual({ keyId: "KeyId001", limit: undefined });
    expect(recentDecisionsInput("KeyId001", q("limit=7"))).toEqual({ keyId: "KeyId001", limit: 7 });
  });

  it.each([
    ["limit=0", { limit: ["limit must be at least 1"] }],
    ["limit=51", { limit: ["limit must be at most 50"] }],
    ["limit=x", { limit: ["limit must be a number"] }],
    ["from=1", { from: ["from is not a parameter of this query (known: limit)"] }],
  ])("?%s is a 422", async (query, errors) => {
    const error = await rejection(() => recentDecisionsInput("KeyId001", q(query)));
    expect(error.status).toBe(422);
    expect(error.extra.errors).toEqual(errors);
  });
});
