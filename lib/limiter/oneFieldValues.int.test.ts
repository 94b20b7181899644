/**
 * The one-field integer form of subject keys (lua/includes/preamble.lua, docs/architecture.md
 * "Redis keys"): a key holding one rule's compact state is one integer, which Redis keeps as an
 * integer object; a one-field key in either form (the integer, or a "<field>=<state>" entry as a key
 * of several fields leaves it) is read back, and a second rule turns it back into entries without
 * losing a count.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import { createLimiter } from "./decide";
import { counterField, counterKey } from "./keys";
import type { Limiter } from "./decide";
import type { Algorithm, LimiterRule } from "./types";

const redis = plainRedis();
const prefix = uniquePrefix("onefield");
const compact = createLimiter({ redis, prefix, timeoutMs: 5000 });
const T0 = 1_700_000_000_000;
let tenantSeq = 0;
const freshSubject = () => ({ tenantId: `o${tenantSeq++}`, keyId: "k" });
const SUBJECT_KEY_ALGORITHMS: Algorithm[] = ["fixed_window", "sliding_window", "token_bucket", "gcra"];
/** The digits of a compact state in a "<field>=<state>" entry (lua/includes/values.lua enc64). */
const DIGITS64 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";
function enc64(n: bigint): string {
  let out = "";
  do {
    out = DIGITS64[Number(n % 64n)] + out;
    n /= 64n;
  } while (n > 0n);
  return out;
}

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

async function remainingAfter(limiter: Limiter, rules: LimiterRule[], subject: { tenantId: string; keyId: string }) {
  const decision = await limiter.decide(rules, subject, { nowMs: T0 + 5 });
  expect(decision.allowed).toBe(true);
  return decision.results.map((r) => r.remaining);
}

describe("one-field subject keys", () => {
  it("are one integer: <state><ref in decimal><ref digits and field char in one digit>, an integer object", async () => {
    const rule = limiterRule({ algorithm: "token_bucket", ref: "z", limit: 100, windowMs: 60_000 });
    const subject = freshSubject();
    await compact.decide([rule], subject, { nowMs: T0 });
    const key = counterKey(prefix, rule, subject);
    // ref z = 35 (two digits), t = 3: (2 - 1) * 5 + 3 - 1 = 7; 19 digits for a TAT in 2023
    expect(await redis.get(key)).toMatch(/^[1-9]\d{15}357$/);
    expect(await redis.object("ENCODING", key)).toBe("int");
    expect(await redis.pttl(key)).toBeGreaterThan(0);
  });

  it.each(SUBJECT_KEY_ALGORITHMS)(
    "keep counting from a one-field key in either form, written back as the integer (%s)",
    async (algorithm) => {
      const rule = limiterRule({ algorithm, ref: "7", limit: 10, windowMs: 60_000 });
      const subject = freshSubject();
      const key = counterKey(prefix, rule, subject);
      expect(await remainingAfter(compact, [rule], subject)).toEqual([9]);
      const integer = (await redis.get(key))!;
      expect(integer).not.toContain("=");
      // The same state as an entry: the integer without its ref ("7") and field digit.
      await redis.set(key, `${counterField(rule)}=${enc64(BigInt(integer.slice(0, -2)))}`, "PX", 600_000);
      expect(await remainingAfter(compact, [rule], subject)).toEqual([8]);
      expect(await redis.get(key)).not.toContain("=");
    },
  );

  it("become entries when a second rule joins, the first rule's count kept", async () => {
    const first = limiterRule({ algorithm: "fixed_window", name: "a", ref: "1", limit: 10 });
    const second = limiterRule({ algorithm: "gcra", name: "b", ref: "2", limit: 10 });
    const subject = freshSubject();
    const key = counterKey(prefix, first, subject);
    expect(await remainingAfter(compact, [first], subject)).toEqual([9]);
    expect(await remainingAfter(compact, [first, second], subject)).toEqual([8, 9]);
    expect((await redis.get(key))?.split(",").sort()).toEqual([
      expect.stringMatching(/^f1=/),
      expect.stringMatching(/^g2=/),
    ]);
    expect(await remainingAfter(compact, [first], subject)).toEqual([7]);
  });

  it("stay entries when the ref has no decimal form that reads back (a dash, a leading zero, over 99)", async () => {
    for (const ref of ["per-key", "01", "2s", "abc"]) {
      const rule = limiterRule({ algorithm: "fixed_window", ref, limit: 10 });
      const subject = freshSubject();
      expect(await remainingAfter(compact, [rule], subject)).toEqual([9]);
      expect(await redis.get(counterKey(prefix, rule, subject))).toMatch(new RegExp(`^f${ref}=`));
      expect(await remainingAfter(compact, [rule], subject)).toEqual([8]);
    }
  });
});
