/**
 * The one way Sluice runs a Lua entry point of this folder as a script (decide.lua's fallback from
 * FCALL, give_back.lua, release.lua, traceAppend.lua): `luaScript(file, command)` reads the file
 * with its includes (loadScript.ts) on first use, and `run` sends it through ioredis
 * `defineCommand`, on single nodes and Clusters alike (every key of a call in one slot).
 *
 * Contract
 * - The source is read once per process, on the first `source()`, `sha()` or `run()`; a missing
 *   file throws (a broken deploy: callers read it at start-up to fail loudly, see decide.ts).
 * - `run(redis, ...args)`: `args` are the number of keys, the keys, then ARGV; an array among them
 *   is flattened one level by ioredis (Command's `args.flat()`), so a caller passes its arrays as is,
 *   never copied or spread on the way. The command is defined once per client.
 * - EVALSHA, which ioredis retries once as EVAL on NOSCRIPT (per connection); a call that still
 *   fails with NOSCRIPT (several in flight across a SCRIPT FLUSH) is sent as EVAL, which cannot
 *   miss. Any other error rejects as Redis sent it; deadlines are the caller's (withDeadline).
 */
import { createHash } from "node:crypto";
import type { RedisClient } from "../../redis/connect";
import { loadScript } from "./loadScript";

/** One argument of a call: a value, or an array of them that ioredis flattens into the call. */
export type ScriptArg = string | number | readonly (string | number)[];

export interface LuaScript {
  /** The file's text with its includes inlined, as Redis runs it. */
  source(): string;
  /** SHA-1 of `source()`: the script's name for EVALSHA. */
  sha(): string;
  run(redis: RedisClient, ...args: ScriptArg[]): Promise<unknown>;
}

type WithCommand = Record<string, (...args: ScriptArg[]) => Promise<unknown>>;
type WithEval = { eval(source: string, ...args: ScriptArg[]): Promise<unknown> };

function isNoScript(error: unknown): boolean {
  return (error instanceof Error ? error.message : String(error)).includes("NOSCRIPT");
}

/** `file`: an entry point of lib/limiter/lua; `command`: the client command it is defined as (one per file). */
export function luaScript(file: string, command: string): LuaScript {
  let source: string | undefined;
  let sha: string | undefined;
  const defined = new WeakSet<RedisClient>();
  const script: LuaScript = {
    source: () => (source ??= loadScript(file)),
    sha: () => (sha ??= createHash("sha1").update(script.source()).digest("hex")),
    run(redis, ...args) {
      if (!defined.has(redis)) {
        redis.defineCommand(command, { lua: script.source() });
        defined.add(redis);
      }
      return (redis as unknown as WithCommand)[command]!(...args).catch((error: unknown) => {
        if (!isNoScript(error)) throw error;
        return (redis as unknown as WithEval).eval(script.source(), ...args);
      });
    },
  };
  return script;
}
