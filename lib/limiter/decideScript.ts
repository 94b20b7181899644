/**
 * Runs lua/decide.lua through ioredis `defineCommand`, which sends EVALSHA and transparently falls
 * back to EVAL (reloading the script) on NOSCRIPT, on single nodes and Clusters alike.
 * ioredis retries only once, as EVALSHA again when another call of the same connection reloaded
 * the script meanwhile; with several calls in flight across a SCRIPT FLUSH (a decision made while
 * nothing is in flight goes out at once, beside a batch) that retry can meet NOSCRIPT too. A call
 * that still fails with NOSCRIPT is sent as EVAL with the source, which cannot miss.
 */
import { createHash } from "node:crypto";
import type { RedisClient } from "../redis/connect";
import { loadScript } from "./lua/loadScript";

const COMMAND = "sluiceDecide";
let source: string | undefined;
const defined = new WeakSet<RedisClient>();

/** Arrays among the arguments are flattened one level by ioredis (Command's `args.flat()`), sparing a copy. */
type Arg = string | number | readonly (string | number)[];
type WithDecide = { [COMMAND](numKeys: number, ...keysAndArgs: Arg[]): Promise<unknown> };

export function decideScriptSource(): string {
  source ??= loadScript("decide.lua");
  return source;
}

export function decideScriptSha(): string {
  return createHash("sha1").update(decideScriptSource()).digest("hex");
}

export function runDecideScript(redis: RedisClient, keys: string[], args: Arg[]): Promise<unknown> {
  if (!defined.has(redis)) {
    redis.defineCommand(COMMAND, { lua: decideScriptSource() });
    defined.add(redis);
  }
  return (redis as unknown as WithDecide)[COMMAND](keys.length, keys, ...args).catch((error: unknown) => {
    if (!(error instanceof Error) || !error.message.includes("NOSCRIPT")) throw error;
    return (redis as unknown as { eval(...args: Arg[]): Promise<unknown> }).eval(decideScriptSource(), keys.length, keys, ...args);
  });
}
