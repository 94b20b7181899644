/**
 * Redis memory per client: for each algorithm, 10,000 distinct clients each make one request
 * under a realistic rule (100 per 60 s, so nothing expires meanwhile), and the INFO used_memory
 * delta is divided by 10,000. rate-limiter-flexible is measured the same way.
 * Keys are shaped like production keys: a 7-character prefix unique to this run (as long as the
 * default `sluice:`), an 8-character tenant id and 8-character key ids (lib/common/ids.ts), rule ref "1"
 * (lib/policy/rules/ruleRefs.ts). They are deleted after each row.
 */
import { createLimiter } from "../../lib/limiter/decide";
import { ALGORITHMS, type Algorithm } from "../../lib/limiter/types";
import { counterKey } from "../../lib/limiter/keys";
import type { RedisClient } from "../../lib/redis/connect";
import { deleteByPrefix, infoField, keysByPrefix, type BenchContext } from "./context";
import { sluiceClient } from "./limiterCases";
import { rlfLimiter } from "./peerCases";
import { makeRule } from "./workload";
import { round } from "./measure";
import type { MemoryRow } from "./types";

const CLIENTS = 10_000;
const CONCURRENCY = 64;
const SAMPLE = 200;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const keyIdOf = (i: number): string => `k${String(i).padStart(7, "0")}`;
const MEMORY_TENANT = "BenchTn1";
/** The memory row of three rules of one subject. */
export const THREE_RULES_ROW = "3 rules, one subject";

async function usedMemory(ctx: BenchContext): Promise<number> {
  await sleep(300); // let active rehashing and client buffer resizing settle
  return Number(await infoField(ctx.admin, "memory", "used_memory"));
}

async function forEachClient(op: (keyId: string) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < CLIENTS) await op(keyIdOf(next++));
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function meanMemoryUsage(ctx: BenchContext, keys: string[]): Promise<number> {
  const sample = keys.slice(0, SAMPLE);
  const sizes = await Promise.all(sample.map((k) => ctx.admin.call("MEMORY", "USAGE", k, "SAMPLES", "0")));
  return sizes.reduce<number>((sum, s) => sum + Number(s), 0) / Math.max(1, sample.length);
}

/** Warm (script cache, connection), measure one fill, then delete the row's keys. */
async function measureRow(
  ctx: BenchContext,
  prefix: string,
  algorithm: string,
  request: (keyId: string) => Promise<unknown>,
  note?: string,
): Promise<MemoryRow> {
  await request("warm");
  await deleteByPrefix(ctx.admin, prefix);
  const before = await usedMemory(ctx);
  await forEachClient(request);
  const after = await usedMemory(ctx);
  const keys = await keysByPrefix(ctx.admin, prefix);
  const row: MemoryRow = {
    algorithm,
    bytesPerClient: round((after - before) / CLIENTS, 1),
    memoryUsagePerKey: round(await meanMemoryUsage(ctx, keys), 1),
    clients: CLIENTS,
    keysCreated: keys.length,
    exampleKey: keys.sort()[0] ?? "",
    ...(note ? { note } : {}),
  };
  await deleteByPrefix(ctx.admin, prefix);
  console.log(
    `  ${algorithm.padEnd(22)} ${String(row.bytesPerClient).padStart(7)} B/client (used_memory)  ${String(row.memoryUsagePerKey).padStart(6)} B/key (MEMORY USAGE)  ${row.keysCreated} keys  e.g. ${row.exampleKey}`,
  );
  return row;
}

/** The memory rows' own key prefix, short like a production `sluice:`. */
export const memoryPrefix = (): string => `s${process.pid.toString(36).padStart(5, "0").slice(-5)}:`;

export async function memoryRows(ctx: BenchContext): Promise<MemoryRow[]> {
  const prefix = memoryPrefix();
  const redis: RedisClient = sluiceClient(ctx, false);
  const rows: MemoryRow[] = [];
  try {
    await redis.ping();
    const limiter = createLimiter({ redis, prefix, timeoutMs: 1000 });
    for (const algorithm of ALGORITHMS as readonly Algorithm[]) {
      const rule = { ...makeRule(algorithm, "per-key", "key", 100, 60_000), ref: "1" };
      const request = async (keyId: string) => {
        const decision = await limiter.decide([rule], { tenantId: MEMORY_TENANT, keyId });
        if (decision.results[0]?.source !== "redis")
          throw new Error(
            `memory fill: ${counterKey(prefix, rule, { tenantId: MEMORY_TENANT, keyId })} not answered by Redis`,
          );
      };
      rows.push(await measureRow(ctx, prefix, algorithm, request, "rule: 100 per 60 s, scope key"));
    }
    // Three rules of one subject (one subject key holds all three).
    const three = (["fixed_window", "sliding_window", "token_bucket"] as const).map((algorithm, i) => ({
      ...makeRule(algorithm, `r${i}`, "key", 100, 60_000),
      ref: String(i + 1),
    }));
    const threeRequest = async (keyId: string) => {
      const decision = await limiter.decide(three, { tenantId: MEMORY_TENANT, keyId });
      if (decision.results.some((r) => r.source !== "redis"))
        throw new Error("memory fill: three rules not answered by Redis");
    };
    rows.push(
      await measureRow(
        ctx,
        prefix,
        THREE_RULES_ROW,
        threeRequest,
        "fixed_window, sliding_window and token_bucket, 100 per 60 s each, scope key",
      ),
    );
    const rlf = rlfLimiter(redis, `${prefix}rlf`, 100, 60);
    rows.push(
      await measureRow(ctx, prefix, "rate-limiter-flexible", (keyId) => rlf.consume(keyId), "points 100 per 60 s"),
    );
  } finally {
    await redis.quit();
  }
  return rows;
}
