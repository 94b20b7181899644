/**
 * Hot subject: one client far over its limit (10 per 60 s, concurrency 256), so almost every request
 * is refused. Sluice (token bucket) answers repeated refusals from its refusal cache; rate-limiter-
 * flexible (points 10 / 60 s, no inMemoryBlockOnConsumed) asks Redis every time; with
 * inMemoryBlockOnConsumed it blocks the client in process memory once it used its points (its
 * fastest answer to a hot client, which the refusal cache is measured against).
 */
import { RateLimiterRedis } from "rate-limiter-flexible";
import { createLimiter } from "../../lib/limiter/decide";
import { RefusalCache } from "../../lib/limiter/refusalCache";
import type { Subject } from "../../lib/limiter/types";
import { runCase, type BenchContext } from "./context";
import { decideOp, sluiceClient } from "./limiterCases";
import { consumeOp, rlfLimiter } from "./peerCases";
import { makeRule, TENANT } from "./workload";

const CONCURRENCY = 256;
const HOT: Subject = { tenantId: TENANT, keyId: "hot", ip: "10.9.9.9" };

export async function hotSubjectCases(ctx: BenchContext): Promise<void> {
  const sluiceRedis = sluiceClient(ctx, false);
  const rlfRedis = sluiceClient(ctx, false);
  try {
    await Promise.all([sluiceRedis.ping(), rlfRedis.ping()]);
    const limiter = createLimiter({
      redis: sluiceRedis,
      prefix: `${ctx.prefix}hot:`,
      timeoutMs: 1000,
      refusals: new RefusalCache(),
    });
    const rules = [makeRule("token_bucket", "per-key", "key", 10, 60_000)];
    await runCase(
      ctx,
      {
        subject: "sluice",
        case: "hot-subject",
        concurrency: CONCURRENCY,
        note: "token_bucket 10 per 60 s, refusal cache on",
      },
      decideOp(limiter, rules, () => HOT),
    );
    const rlf = rlfLimiter(rlfRedis, `${ctx.prefix}hot:rlf`, 10, 60);
    await runCase(
      ctx,
      {
        subject: "rate-limiter-flexible",
        case: "hot-subject",
        concurrency: CONCURRENCY,
        note: "points 10 per 60 s, no inMemoryBlockOnConsumed",
      },
      consumeOp(rlf, () => HOT.keyId!),
    );
    const blocking = new RateLimiterRedis({
      storeClient: rlfRedis,
      keyPrefix: `${ctx.prefix}hot:rlfblock`,
      points: 10,
      duration: 60,
      inMemoryBlockOnConsumed: 10,
    });
    await runCase(
      ctx,
      {
        subject: "rate-limiter-flexible",
        case: "hot-subject-inmemory-block",
        concurrency: CONCURRENCY,
        note: "points 10 per 60 s, inMemoryBlockOnConsumed 10",
      },
      consumeOp(blocking, () => HOT.keyId!),
    );
  } finally {
    await Promise.all([sluiceRedis.quit(), rlfRedis.quit()]);
  }
}
