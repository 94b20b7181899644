/**
 * A fake Redis client for the limiter's unit tests (lib/limiter/decide.test.ts,
 * decideScriptCalls.test.ts): `fakeRedis(reply, status)` answers each decide script call (FCALL, or
 * EVALSHA through defineCommand) with `reply(keys, argv)` and records each call's ARGV (`calls`) and
 * KEYS (`keysOfCall`), flattened one level as ioredis does. `never` and `boom` are replies that never
 * come and that fail as a refused connection; `subject` a key of tenant t1; `rule(over)` a limiter
 * rule of 2 per second with `over` applied.
 */
import type { RedisClient } from "@/lib/redis/connect";
import type { LimiterRule } from "@/lib/limiter/types";
import { limiterRule } from "./rules";

export type Reply = (keys: string[], args: (string | number)[]) => Promise<unknown>;
type Arg = string | number | (string | number)[];

/** Records each script call's ARGV (FCALL, or EVALSHA through defineCommand), flattened one level as ioredis does. */
export function fakeRedis(reply: Reply, status = "ready") {
  const calls: (string | number)[][] = [];
  const keysOfCall: string[][] = [];
  // The arguments after the function name or script: the number of keys, the keys, ARGV.
  const run = (args: Arg[]) => {
    const [numKeys, ...rest] = args.flat();
    const n = Number(numKeys);
    calls.push(rest.slice(n));
    keysOfCall.push(rest.slice(0, n) as string[]);
    return reply(rest.slice(0, n) as string[], rest.slice(n));
  };
  const client = {
    status,
    defineCommand() {},
    sluiceDecide: (...args: Arg[]) => run(args),
    call(command: string, _name: string, ...args: Arg[]) {
      if (command !== "FCALL") throw new Error(`unexpected command ${command}`);
      return run(args);
    },
  };
  return { client: client as unknown as RedisClient, calls, keysOfCall };
}

export const subject = { tenantId: "t1", keyId: "k1" };
export const never: Reply = () => new Promise(() => {});
export const boom: Reply = () => Promise.reject(new Error("ECONNREFUSED"));
export const rule = (over: Partial<LimiterRule>) => limiterRule({ limit: 2, windowMs: 1000, ...over });
