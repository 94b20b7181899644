/**
 * Runs lua/traceAppend.lua (lib/limiter/lua, where the process's scripts are read from) through
 * ioredis `defineCommand`: EVALSHA, falling back to EVAL on NOSCRIPT, on single nodes and Clusters
 * alike (one key: one slot). Used by the recorder (decisionRecorder.ts) for each trace chunk
 * (flushCommands.ts traceChunks). Rejects on any Redis error; the caller drops the chunk.
 */
import { loadScript } from "../../limiter/lua/loadScript";
import type { RedisClient } from "../../redis/connect";
import type { TraceChunk } from "./flushCommands";

const COMMAND = "sluiceTraceAppend";
let source: string | undefined;
const defined = new WeakSet<RedisClient>();

type WithTraceAppend = {
  [COMMAND](
    numKeys: number,
    key: string,
    maxLen: number,
    minId: number,
    ttlMs: number,
    values: readonly string[],
  ): Promise<unknown>;
};

export function appendTrace(redis: RedisClient, chunk: TraceChunk): Promise<unknown> {
  if (!defined.has(redis)) {
    source ??= loadScript("traceAppend.lua");
    redis.defineCommand(COMMAND, { lua: source });
    defined.add(redis);
  }
  // ioredis flattens an array argument one level (Command's `args.flat()`), sparing a copy.
  return (redis as unknown as WithTraceAppend)[COMMAND](
    1,
    chunk.key,
    chunk.maxLen,
    chunk.minId,
    chunk.ttlMs,
    chunk.values,
  );
}
