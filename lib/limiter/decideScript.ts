/**
 * Runs lua/decide.lua through ioredis `defineCommand`, which sends EVALSHA and transparently falls
 * back to EVAL (reloading the script) on NOSCRIPT, on single nodes and Clusters alike.
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
  return (redis as unknown as WithDecide)[COMMAND](keys.length, keys, ...args);
}
