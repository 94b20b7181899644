/**
 * Rolling upgrade from the per-rule key layout (docs/architecture.md "Rolling upgrade (counter layout)"): an
 * instance of the earlier version (simulated by writing its per-rule key exactly as it did: the
 * packed state in decimal, with a TTL), instances with SLUICE_LEGACY_COUNTER_KEYS, and instances
 * of the subject layout alone share one limit without a double grant at either step.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import { createLimiter } from "./decide";
import { legacyCounterKey } from "./keys";

const redis = plainRedis();
const prefix = uniquePrefix("upgrade");
const dual = createLimiter({ redis, prefix, timeoutMs: 2000, legacyKeys: true });
const subjectOnly = createLimiter({ redis, prefix, timeoutMs: 2000 });
const FW_COUNT = 2 ** 21;

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

describe("rolling upgrade", () => {
  it("old + dual, then dual + subject-only instances admit exactly the limit between them", async () => {
    const rule = limiterRule({ name: "per-key", algorithm: "fixed_window", limit: 6, windowMs: 60_000 });
    const subject = { tenantId: "up1", keyId: "k" };
    const now = Math.floor(Date.now() / 60_000) * 60_000 + 5_000;
    const window = Math.floor(now / 60_000);
    const legacy = legacyCounterKey(prefix, rule, subject);
    // An instance of the earlier version admitted 2: its per-rule key holds window * 2^21 + 2.
    await redis.set(legacy, String(window * FW_COUNT + 2), "PX", 600_000);
    // A dual instance counts them and writes its admission where the old instance reads it.
    expect((await dual.decide([rule], subject, { nowMs: now })).results[0]).toMatchObject({
      allowed: true,
      remaining: 3,
    });
    expect(Number(await redis.get(legacy))).toBe(window * FW_COUNT + 3);
    // The old instance admits one more on its own key.
    await redis.set(legacy, String(window * FW_COUNT + 4), "PX", 600_000);
    expect((await dual.decide([rule], subject, { nowMs: now + 1 })).results[0]).toMatchObject({
      allowed: true,
      remaining: 1,
    });
    // Old instances gone: a subject-only instance sees all five in the subject key.
    expect((await subjectOnly.decide([rule], subject, { nowMs: now + 2 })).results[0]).toMatchObject({
      allowed: true,
      remaining: 0,
    });
    // A dual instance sees the subject-only admission (its field is ahead of the stale legacy key).
    expect((await dual.decide([rule], subject, { nowMs: now + 3 })).allowed).toBe(false);
    expect((await subjectOnly.decide([rule], subject, { nowMs: now + 4 })).allowed).toBe(false);
  });

  it("token bucket: the later theoretical arrival time wins whichever layout holds it", async () => {
    const rule = limiterRule({ name: "tb", algorithm: "token_bucket", limit: 10, windowMs: 10_000, burst: 3 });
    const subject = { tenantId: "up2", keyId: "k" };
    const now = 1_800_000_000_000;
    for (let i = 0; i < 2; i++) await subjectOnly.decide([rule], subject, { nowMs: now });
    // One token left by the subject key; the legacy key (an old instance) is empty: the field wins.
    expect((await dual.decide([rule], subject, { nowMs: now })).results[0]).toMatchObject({
      allowed: true,
      remaining: 0,
    });
    expect((await dual.decide([rule], subject, { nowMs: now })).allowed).toBe(false);
  });
});
