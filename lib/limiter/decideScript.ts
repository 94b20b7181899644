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

type WithDecide = { [COMMAND](numKeys: number, ...keysAndArgs: (string | number)[]): Promise<unknown> };

export function decideScriptSource(): string {
  source ??= loadScript("decide.lua");
  return source;
}

export function decideScriptSha(): string {
  return createHash("sha1").update(decideScriptSource()).digest("hex");
}

export function runDecideScript(redis: RedisClient, keys: string[], args: (string | number)[]): Promise<unknown> {
  if (!defined.has(redis)) {
    redis.defineCommand(COMMAND, { lua: decideScriptSource() });
    defined.add(redis);
  }
  return (redis as unknown as WithDecide)[COMMAND](keys.length, ...keys, ...args);
}
