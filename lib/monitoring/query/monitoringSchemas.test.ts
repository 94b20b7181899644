import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors";
import { parseInput } from "../../http/validate";
import {
  hotKeysQuerySchema,
  MAX_POINTS,
  recentDecisionsQuerySchema,
  refusalRateQuerySchema,
  trafficQuerySchema,
} from "./monitoringSchemas";

const NOW = Date.UTC(2026, 0, 1, 10, 0, 0);
const HOUR = 3_600_000;

function errorsOf(schema: Parameters<typeof parseInput>[0], input: unknown): Record<string, string[]> {
  try {
    parseInput(schema, input);
  } catch (error) {
    if (error instanceof AppError && error.status === 422) return error.extra.errors ?? {};
    throw error;
  }
  throw new Error("expected a 422");
}

describe("monitoring query schemas", () => {
  it("accept a valid range and fill defaults", () => {
    expect(parseInput(trafficQuerySchema, { fromMs: NOW - HOUR, toMs: NOW, stepMs: 60_000 })).toEqual({
      fromMs: NOW - HOUR,
      toMs: NOW,
      stepMs: 60_000,
    });
    expect(parseInput(refusalRateQuerySchema, { fromMs: NOW - HOUR, toMs: NOW, stepMs: 60_000 }).limit).toBe(10);
    expect(parseInput(hotKeysQuerySchema, { fromMs: NOW - HOUR, toMs: NOW }).limit).toBe(20);
    expect(parseInput(recentDecisionsQuerySchema, { keyId: "KeyId001" }).limit).toBe(50);
  });

  it.each([
    [
      "fromMs missing",
      trafficQuerySchema,
      { toMs: NOW, stepMs: 5_000 },
      { fromMs: ["fromMs must be a number (epoch milliseconds)"] },
    ],
    [
      "negative fromMs",
      trafficQuerySchema,
      { fromMs: -1, toMs: 10_000, stepMs: 5_000 },
      { fromMs: ["fromMs must not be negative"] },
    ],
    [
      "an empty range",
      trafficQuerySchema,
      { fromMs: NOW, toMs: NOW, stepMs: 5_000 },
      { toMs: ["toMs must be after fromMs"] },
    ],
    [
      "a range over 24 h",
      hotKeysQuerySchema,
      { fromMs: NOW - 25 * HOUR, toMs: NOW },
      { fromMs: ["the range must be at most 24 h"] },
    ],
    [
      "too many points",
      trafficQuerySchema,
      { fromMs: NOW - HOUR, toMs: NOW, stepMs: 1_000 },
      { stepMs: [`stepMs is too small for this range: at most ${MAX_POINTS} points`] },
    ],
    [
      "a per-second step over more than 1 h",
      trafficQuerySchema,
      { fromMs: NOW - 2 * HOUR, toMs: NOW, stepMs: 90_000 },
      { stepMs: ["for a range over 1 h, stepMs must be a whole number of minutes"] },
    ],
    [
      "a rule without a tenant",
      trafficQuerySchema,
      { ruleRef: "1", fromMs: NOW - HOUR, toMs: NOW, stepMs: 60_000 },
      { ruleRef: ["ruleRef needs a tenantId"] },
    ],
    [
      "a malformed rule ref",
      trafficQuerySchema,
      { tenantId: "Tenant01", ruleRef: "A B", fromMs: NOW - HOUR, toMs: NOW, stepMs: 60_000 },
      { ruleRef: ["ruleRef must be a rule ref"] },
    ],
    [
      "a malformed tenant id",
      hotKeysQuerySchema,
      { tenantId: "x", fromMs: NOW - HOUR, toMs: NOW },
      { tenantId: ["tenantId must be a tenant id"] },
    ],
    [
      "an unknown field",
      hotKeysQuerySchema,
      { fromMs: NOW - HOUR, toMs: NOW, extra: 1 },
      { "": [expect.stringContaining("extra")] },
    ],
    ["a malformed key id", recentDecisionsQuerySchema, { keyId: "nope" }, { keyId: ["keyId must be an API key id"] }],
    [
      "too many recent decisions",
      recentDecisionsQuerySchema,
      { keyId: "KeyId001", limit: 51 },
      { limit: ["limit must be at most 50"] },
    ],
  ])("refuses %s with a message naming the field", (_label, schema, input, errors) => {
    expect(errorsOf(schema, input)).toEqual(errors);
  });
});
