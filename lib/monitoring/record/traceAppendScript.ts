/**
 * Runs lua/traceAppend.lua (lib/limiter/lua, where the process's scripts are read from) as every
 * script is run (lib/limiter/lua/luaScript.ts; one key: one slot). Used by the recorder (decisionRecorder.ts) for each trace chunk
 * (flushCommands.ts traceChunks). Rejects on any Redis error; the caller drops the chunk.
 */
import { luaScript } from "../../limiter/lua/luaScript";
import type { RedisClient } from "../../redis/connect";
import type { TraceChunk } from "./flushCommands";

const traceAppendScript = luaScript("traceAppend.lua", "sluiceTraceAppend");

export function appendTrace(redis: RedisClient, chunk: TraceChunk): Promise<unknown> {
  // The values array is sent as is (flattened by ioredis, see luaScript.ts), sparing a copy.
  return traceAppendScript.run(redis, 1, chunk.key, chunk.maxLen, chunk.minId, chunk.ttlMs, chunk.values);
}
