import { describe, expect, it } from "vitest";
import { futureExpiresAtSchema, isExpired, keyExpirySchema } from "./keyExpiry";

const NOW = Date.parse("2026-11-24T12:00:00Z");

describe("key expiry", () => {
  it("is expired from its instant on, never without one", () => {
    expect(isExpired(NOW, NOW - 1)).toBe(false);
    expect(isExpired(NOW, NOW)).toBe(true);
    expect(isExpired(NOW, NOW + 1)).toBe(true);
    expect(isExpired(null, Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it("accepts ISO date-times with a zone or null, and parses them to a Date", () => {
    expect(keyExpirySchema.parse({ expiresAt: "2026-12-31T23:59:59Z" }).expiresAt?.toISOString()).toBe(
      "2026-12-31T23:59:59.000Z",
    );
    expect(keyExpirySchema.parse({ expiresAt: "2026-12-31T23:59:59+02:00" }).expiresAt?.toISOString()).toBe(
      "2026-12-31T21:59:59.000Z",
    );
    expect(keyExpirySchema.parse({ expiresAt: null }).expiresAt).toBeNull();
  });

  it.each([
    ["a date without time", "2026-12-31"],
    ["a date-time without a zone", "2026-12-31T23:59:59"],
    ["a number", 1767225599000],
    ["text", "tomorrow"],
    ["an impossible date", "2026-02-30T00:00:00Z"],
  ])("refuses %s naming expiresAt", (_what, value) => {
    const result = keyExpirySchema.safeParse({ expiresAt: value });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.path).toEqual(["expiresAt"]);
    expect(result.error!.issues[0]!.message).toMatch(/^expiresAt must be an ISO 8601 date-time/);
  });

  it("refuses unknown fields and a missing expiresAt", () => {
    expect(keyExpirySchema.safeParse({ expiresAt: null, name: "x" }).success).toBe(false);
    expect(keyExpirySchema.safeParse({}).success).toBe(false);
  });

  it("at creation the instant must lie after the injected clock's now", () => {
    const schema = futureExpiresAtSchema(() => NOW);
    expect(schema.safeParse("2026-11-24T12:00:00.001Z").success).toBe(true);
    const past = schema.safeParse("2026-11-24T12:00:00Z");
    expect(past.success).toBe(false);
    expect(past.error!.issues[0]!.message).toBe("expiresAt must be in the future");
    expect(schema.safeParse(null).success).toBe(true);
  });
});
