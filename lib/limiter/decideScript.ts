/**
 * Runs lua/decide.lua, as a Redis function (FCALL) where the server allows it, else as a script.
 *
 * - Function (Redis 7): decide.lua's part above its `--!body` line (the preamble and the algorithm
 *   includes: ~40 closures and their tables) runs once, at FUNCTION LOAD, instead of on every call:
 *   a one-request call costs Redis about a third less (docs/architecture.md "The decide script").
 *   The library is named after the script's hash (`sluice_<hash>`), so versions side by side in a
 *   rolling upgrade each call their own code and never replace each other's. It is loaded on first
 *   use (on every master of a Cluster) and again whenever FCALL reports it missing (FUNCTION FLUSH,
 *   a new or restarted node); a call that still misses it is sent as EVAL, which cannot miss.
 *   Libraries of versions no running instance uses are deleted by decideLibraries.ts.
 * - Script: where FUNCTION LOAD or FCALL is refused (an ACL user without `@scripting` functions, a
 *   server before 7.0), the client runs it as a script from then on (EVALSHA, EVAL on NOSCRIPT:
 *   lua/luaScript.ts). A call refused as OOM (Redis over maxmemory) is sent as a script too, see
 *   runDecideScript.
 */
import type { Cluster, Redis } from "ioredis";
import type { RedisClient } from "../redis/connect";
import { luaScript } from "./lua/luaScript";

/** decide.lua as a script (`sluiceDecide`), and the source of its function library. */
export const decideScript = luaScript("decide.lua", "sluiceDecide");
const BODY = "\n--!body";
let library: { name: string; library: string; code: string } | undefined;
/** Clients that run the script (EVALSHA) because functions are refused; absent: FCALL. */
const scriptOnly = new WeakSet<RedisClient>();
/** A FUNCTION LOAD under way per client: concurrent calls that miss the function share it. */
const loading = new WeakMap<RedisClient, Promise<boolean>>();

/**
 * A call's arguments after the function name or script: the number of keys, the keys, then ARGV
 * (decide.lua). One flat array: ioredis flattens arrays among a command's arguments one level
 * (Command's `args.flat()`), so it is sent as is, never copied or spread on the way.
 */
export type DecideArgv = (string | number)[];
type Caller = { call(command: string, name: string, argv: DecideArgv): Promise<unknown> };

/**
 * The function library: the script's part above `--!body` once, the rest as the function's body.
 * `name`: the function's; `library`: the library's (`sluice_<16 hex>`, decideLibraries.ts).
 */
export function decideLibrary(): { name: string; library: string; code: string } {
  if (!library) {
    const script = decideScript.source();
    const at = script.indexOf(BODY);
    if (at < 0) throw new Error("decide.lua has no --!body line");
    const id = decideScript.sha().slice(0, 16);
    const name = `sluice_decide_${id}`;
    const code = `#!lua name=sluice_${id}\n${script.slice(0, at)}\nredis.register_function('${name}', function(KEYS, ARGV)${script.slice(at)}\nend)\n`;
    library = { name, library: `sluice_${id}`, code };
  }
  return library;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Functions are refused for good: no permission, or no such command (Redis before 7.0). */
function refusesFunctions(error: unknown): boolean {
  return /NOPERM|unknown command/i.test(message(error));
}

/** Loads the library (every master of a Cluster); false when this client must use the script. */
function loadLibrary(redis: RedisClient): Promise<boolean> {
  let pending = loading.get(redis);
  if (!pending) {
    const nodes: Redis[] = redis.isCluster ? (redis as Cluster).nodes("master") : [redis as Redis];
    pending = Promise.all(nodes.map((node) => node.call("FUNCTION", "LOAD", "REPLACE", decideLibrary().code)))
      .then(() => true)
      .catch((error: unknown) => {
        if (refusesFunctions(error)) scriptOnly.add(redis);
        return false;
      })
      .finally(() => loading.delete(redis));
    loading.set(redis, pending);
  }
  return pending;
}

/** `argv`: the number of keys, the keys, then ARGV (see DecideArgv). */
export async function runDecideScript(redis: RedisClient, argv: DecideArgv): Promise<unknown> {
  if (scriptOnly.has(redis)) return decideScript.run(redis, argv);
  // The usual call: no closure or derived promise built for the failures handled below.
  try {
    return await fcall(redis, argv);
  } catch (error) {
    return retryDecideScript(redis, argv, error);
  }
}

/** The decide function of the library, called by name (loaded or not: see retryDecideScript). */
function fcall(redis: RedisClient, argv: DecideArgv): Promise<unknown> {
  return (redis as unknown as Caller).call("FCALL", decideLibrary().name, argv);
}

/** A failed FCALL: as a script where functions are refused (or Redis is over maxmemory), else loads the library and calls again. */
async function retryDecideScript(redis: RedisClient, argv: DecideArgv, error: unknown): Promise<unknown> {
  if (refusesFunctions(error)) {
    scriptOnly.add(redis);
    return decideScript.run(redis, argv);
  }
  // Over maxmemory Redis refuses a function that may write before it runs; a script fails only at
  // its first write. As a script, a refusal (which writes nothing) is still answered by Redis
  // instead of falling into its rule's fail mode (open would admit it).
  if (message(error).startsWith("OOM")) return decideScript.run(redis, argv);
  if (!message(error).includes("Function not found")) throw error;
  if (!(await loadLibrary(redis))) return decideScript.run(redis, argv);
  try {
    return await fcall(redis, argv);
  } catch (again) {
    // Flushed again meanwhile (or a node that missed the load): this call goes as a script.
    if (message(again).includes("Function not found")) return decideScript.run(redis, argv);
    throw again;
  }
}
