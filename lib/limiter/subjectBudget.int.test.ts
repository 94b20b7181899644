/**
 * The subject budget around the real limiter (lib/limiter/budgetedLimiter.ts) on Redis: a fresh
 * header value per decision leaves at most budget + overflow counters subject keys, through
 * `decide` and `decideThen` alike; a give-back returns units to the counter the reservation charged; a refused request's value is given back.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, keysByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import { withSubjectBudget } from "./budgetedLimiter";
import { createLimiter } from "./decide";
import { SubjectBudget } from "./subjectBudget";
import type { Subject } from "./types";

const redis = plainRedis();
const prefix = uniquePrefix("budget");
const BUDGET = 4;
const budget = new SubjectBudget({ budget: BUDGET });
const limiter = withSubjectBudget(createLimiter({ redis, prefix, timeoutMs: 2000 }), budget);

const perUser = limiterRule({
  name: "per-user",
  scope: "header",
  limit: 3,
  windowMs: 60_000,
  attribute: { source: "header", name: "x-user-id", onMissing: "skip", id: "header:x-user-id" },
});
const perId = limiterRule({ name: "per-id", scope: "identifier", limit: 3, windowMs: 60_000 });
const perKey = limiterRule({ name: "per-key", limit: 1_000, windowMs: 60_000 });

const user = (tenantId: string, value: string): Subject => ({
  tenantId,
  keyId: "k1",
  attributes: { "header:x-user-id": value },
});

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

const subjectKeys = async (tenantId: string, scopeChar: string) =>
  (await keysByPrefix(redis, `${prefix}{${tenantId}}2${scopeChar}`)).length;

describe("subject budget on Redis", () => {
  it("decide: a fresh value per request leaves at most budget + overflow counters keys", async () => {
    for (let i = 0; i < 40; i++) await limiter.decide([perUser, perKey], user("b1", `u${i}`));
    for (let i = 0; i < 20; i++) await limiter.decide([perUser], user("b1", `c${i}`));
    expect(await subjectKeys("b1", "H")).toBeLessThanOrEqual(2 * BUDGET);
    expect(budget.held("b1", "per-user")).toBe(BUDGET);
    // A held value keeps its own count; past the budget values share counters and are still limited.
    const own = await limiter.decide([perUser], user("b1", "u0"));
    expect(own.results[0]!.remaining).toBe(1);
    const late = [];
    for (let i = 0; i < 4; i++) late.push((await limiter.decide([perUser], user("b1", "late"))).allowed);
    expect(late).toContain(false);
  });

  it("decideThen: the identifier's values are budgeted too", async () => {
    for (let i = 0; i < 30; i++)
      await limiter.decideThen(
        [perKey],
        { tenantId: "b2", keyId: "k1" },
        {},
        {
          rules: [perId],
          subject: { tenantId: "b2", identifier: `id-${i}` },
        },
      );
    expect(await subjectKeys("b2", "D")).toBeLessThanOrEqual(2 * BUDGET);
  });

  it("a value whose request was refused is given back: it never held a key", async () => {
    const tight = limiterRule({ name: "tight", limit: 1, windowMs: 60_000 });
    await limiter.decide([tight], { tenantId: "b3", keyId: "k1" });
    // Refused by the key's rule: nothing written for the value, so it does not spend the budget.
    for (let i = 0; i < 10; i++)
      expect((await limiter.decide([tight, perUser], user("b3", `r${i}`))).allowed).toBe(false);
    expect(budget.held("b3", "per-user")).toBe(0);
    expect(await subjectKeys("b3", "H")).toBe(0);
  });

  it("a give-back returns the units to the counter its reservation charged, its own or an overflow one", async () => {
    const byResponse = limiterRule({ ...perUser, name: "by-response", chargeOn: ["4xx"] });
    for (let i = 0; i < BUDGET; i++) await limiter.decide([byResponse], user("b4", `own${i}`));
    // own0 holds a counter of its own; "spill" is past the budget and shares an overflow counter.
    for (const value of ["own0", "spill"]) {
      const reserved = await limiter.decide([byResponse], user("b4", value));
      expect(reserved.allowed).toBe(true);
      const before = reserved.results[0]!.remaining;
      expect(await limiter.giveBack(reserved, [byResponse], user("b4", value))).toBe(1);
      const after = await limiter.peek([byResponse], user("b4", value));
      expect(after.results[0]!.remaining).toBe(before + 1);
    }
  });
});
