/**
 * What an admitted answer announces agrees with what the next request is told (Lua in a real Redis,
 * injected time): the last admitted answer's `RateLimit` t (seconds until more quota) is the next
 * refusal's `Retry-After`, for every window algorithm. sliding_window announced the time for the
 * previous window's weight to decay by one whole unit (`t=5`) while the refusal computed the real
 * wait (`Retry-After: 7`): a client that trusted t was refused again.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { limiterRule } from "@/test/support/rules";
import { createLimiter } from "./decide";
import { rateLimitHeaders } from "./headers";
import type { Algorithm } from "./types";

const redis = plainRedis();
const prefix = uniquePrefix("headers-agree");
const limiter = createLimiter({ redis, prefix, timeoutMs: 5000 });
const WINDOW = 10_000;
/** A window start (aligned to the epoch like every window algorithm's). */
const T0 = 1_700_000_000_000 - (1_700_000_000_000 % WINDOW);
let seq = 0;

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

const tOf = (ratelimit: string) => Number(/;t=(\d+)/.exec(ratelimit)?.[1]);

/** Fills the previous window with `previous` units, then admits at `offsetMs` into this one until refused. */
async function lastAdmittedAndRefusal(algorithm: Algorithm, limit: number, previous: number, offsetMs: number) {
  const rule = limiterRule({ algorithm, limit, windowMs: WINDOW });
  const subject = { tenantId: `ha${seq++}`, keyId: "k" };
  for (let i = 0; i < previous; i++) await limiter.decide([rule], subject, { nowMs: T0 - WINDOW + 100 * i });
  const nowMs = T0 + offsetMs;
  let last: Record<string, string> | undefined;
  for (let i = 0; i <= limit; i++) {
    const decision = await limiter.decide([rule], subject, { nowMs });
    const headers = rateLimitHeaders(decision);
    if (!decision.allowed) return { last, refused: headers };
    last = headers;
  }
  throw new Error("never refused");
}

describe("the last admitted answer's RateLimit t is the next refusal's Retry-After", () => {
  it("sliding_window, with the previous window's weight decaying (the t=5 / Retry-After: 7 case among them)", async () => {
    const disagreements: string[] = [];
    for (const limit of [2, 3, 5, 10])
      for (const previous of [1, Math.ceil(limit / 2), limit])
        for (const offsetMs of [0, 700, 2_500, 4_100, 6_000, 8_800]) {
          const { last, refused } = await lastAdmittedAndRefusal("sliding_window", limit, previous, offsetMs);
          if (!last) continue; // nothing admitted at this instant: no announcement to compare
          const t = tOf(last["RateLimit"]!);
          if (t !== Number(refused["Retry-After"]))
            disagreements.push(
              `limit ${limit}, previous ${previous}, +${offsetMs} ms: t=${t}, Retry-After ${refused["Retry-After"]}`,
            );
        }
    expect(disagreements).toEqual([]);
  });

  it.each(["fixed_window", "sliding_log", "token_bucket", "gcra"] as const)("%s", async (algorithm) => {
    for (const offsetMs of [0, 3_300]) {
      const { last, refused } = await lastAdmittedAndRefusal(algorithm, 3, 0, offsetMs);
      expect(tOf(last!["RateLimit"]!), `+${offsetMs} ms`).toBe(Number(refused["Retry-After"]));
    }
  });
});
