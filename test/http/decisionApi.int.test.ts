/**
 * POST /api/v1/check over HTTP, against one built server (`npm run build` first): the decision
 * service charges the caller-given identifier, answers 200 whether allowed or not, refuses bad
 * bodies with 422 naming the field, and is itself limited by the calling key's rules, exactly as
 * ../shared/CONTRACT.md states it. Every tenant, key and rule is created through the admin API.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { apiCall, type CreatedKey } from "@/test/support/adminClient";
import {
  enforcementBed,
  expectProblem,
  expectQuotaExceeded,
  HOUR_MS,
  policyQuota,
} from "@/test/support/enforcementBed";

const bed = enforcementBed("http-check");
const { fixture } = bed;

describe("POST /api/v1/check", () => {
  let key: CreatedKey;
  let otherKey: CreatedKey;
  let limitedKey: CreatedKey;
  let tightKey: CreatedKey;
  const check = (body: unknown, k: CreatedKey = key) =>
    apiCall(bed.url, "/api/v1/check", { method: "POST", key: k.key, body });

  beforeAll(async () => {
    const made = await fixture(
      [
        { name: "per-user", scope: "identifier", algorithm: "sliding_log", limit: 2, windowMs: HOUR_MS },
        { name: "bucket", scope: "identifier", algorithm: "token_bucket", limit: 1, windowMs: HOUR_MS, burst: 5 },
        {
          name: "per-key",
          scope: "key",
          algorithm: "sliding_log",
          limit: 1000,
          windowMs: HOUR_MS,
          match: { path: "/api/v1/echo/**" },
        },
      ],
      4,
    );
    [key, otherKey, limitedKey, tightKey] = [made.keys[0]!, made.keys[1]!, made.keys[2]!, made.keys[3]!];
    // The call itself is subject to the key's own rules: these keys may call it twice.
    for (const limited of [limitedKey, tightKey]) {
      await bed.admin.putKeyRules(limited.id, [
        {
          name: "check-calls",
          algorithm: "sliding_log",
          limit: 2,
          windowMs: HOUR_MS,
          match: { methods: ["POST"], path: "/api/v1/check" },
        },
      ]);
    }
  });

  it("answers a bucket's capacity (its burst) beside its limit: remaining never exceeds the capacity", async () => {
    expect((await check({ identifier: "user-b", rule: "bucket" })).body).toMatchObject({
      allowed: true,
      limit: 1,
      capacity: 5,
      remaining: 4,
    });
  });

  it("charges the identifier (not the key) and answers 200 whether allowed or not", async () => {
    const first = await check({ identifier: "user-1", rule: "per-user" });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      allowed: true,
      limit: 2,
      capacity: 2,
      windowMs: HOUR_MS,
      remaining: 1,
      resetMs: expect.any(Number),
      retryAfterMs: 0,
      rule: "per-user",
    });
    expect((first.body as { resetMs: number }).resetMs).toBeGreaterThan(0);
    expect((await check({ identifier: "user-1", rule: "per-user" })).body).toMatchObject({
      allowed: true,
      remaining: 0,
    });

    const refused = await check({ identifier: "user-1", rule: "per-user" });
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({
      allowed: false,
      limit: 2,
      capacity: 2,
      windowMs: HOUR_MS,
      remaining: 0,
      resetMs: expect.any(Number),
      retryAfterMs: expect.any(Number),
      rule: "per-user",
    });
    expect((refused.body as { retryAfterMs: number }).retryAfterMs).toBeGreaterThan(0);

    // The counter is the identifier's, whichever key asks; another identifier has its own.
    expect((await check({ identifier: "user-1", rule: "per-user" }, otherKey)).body).toMatchObject({
      allowed: false,
      remaining: 0,
    });
    expect((await check({ identifier: "user-2", rule: "per-user" }, otherKey)).body).toMatchObject({
      allowed: true,
      remaining: 1,
    });
    expect((await check({ identifier: "user-3", rule: "per-user", cost: 2 })).body).toMatchObject({
      allowed: true,
      remaining: 0,
    });
  });

  it("an unknown rule, or a rule of another scope, is 404", async () => {
    expectProblem(await check({ identifier: "u", rule: "no-such-rule" }), 404, "Not Found");
    expectProblem(await check({ identifier: "u", rule: "per-key" }), 404, "Not Found");
  });

  it.each([
    ["no identifier", { rule: "per-user" }, "identifier"],
    ["empty identifier", { identifier: "", rule: "per-user" }, "identifier"],
    ["identifier over 256 characters", { identifier: "x".repeat(257), rule: "per-user" }, "identifier"],
    ["no rule", { identifier: "u" }, "rule"],
    ["fractional cost", { identifier: "u", rule: "per-user", cost: 1.5 }, "cost"],
    ["negative cost", { identifier: "u", rule: "per-user", cost: -1 }, "cost"],
    ["unknown field", { identifier: "u", rule: "per-user", extra: 1 }, ""],
  ])("an invalid body (%s) is 422 naming the field", async (_, body, field) => {
    const res = await check(body);
    expectProblem(res, 422, "Unprocessable Content");
    expect(Object.keys((res.body as { errors: Record<string, string[]> }).errors)).toContain(field);
  });

  it("the call is itself limited by the key's matching rules: 429 when they refuse, and the identifier is not charged", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await check({ identifier: "user-4", rule: "per-user" }, limitedKey);
      expect(res.status).toBe(200);
      expect(policyQuota(res, "check-calls")).toBe(2);
    }
    const refused = await check({ identifier: "user-4", rule: "per-user" }, limitedKey);
    expectQuotaExceeded(refused, ["check-calls"]);
    // user-4 was charged twice (limit 2); the refused call never reached the decision service.
    expect((await check({ identifier: "user-4", rule: "per-user" })).body).toMatchObject({
      allowed: false,
      remaining: 0,
    });
    expect((await check({ identifier: "user-5", rule: "per-user" }, key)).status).toBe(200);
  });

  it("a refused identifier leaves the call charged to the key; a refused call charges no identifier", async () => {
    for (let i = 0; i < 2; i++) await check({ identifier: "user-8", rule: "per-user" });
    expect((await check({ identifier: "user-8", rule: "per-user" }, tightKey)).body).toMatchObject({ allowed: false });
    expect((await check({ identifier: "user-9", rule: "per-user" }, tightKey)).body).toMatchObject({
      allowed: true,
      remaining: 1,
    });
    // Both calls above counted: the key's third is refused, and user-9 is not charged by it.
    expectQuotaExceeded(await check({ identifier: "user-9", rule: "per-user" }, tightKey), ["check-calls"]);
    expect((await check({ identifier: "user-9", rule: "per-user" })).body).toMatchObject({
      allowed: true,
      remaining: 0,
    });
  });
});
