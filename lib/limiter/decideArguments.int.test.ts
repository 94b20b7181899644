/**
 * How decide.lua reads a request's packed argument (read_request): well-formed requests are
 * decided in order, their numbers read as numbers; a call with a request argument that has a field
 * missing, a field too many, or a number that is not one is refused with an error naming that
 * argument, and writes nothing, not even for the well-formed requests before it; so is a second key
 * for a rule that keeps its penalty in its own subject key.
 */
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, keysByPrefix, plainRedis, uniquePrefix } from "@/test/support/testRedis";
import { runDecideScript } from "./decideScript";

const redis = plainRedis();
const prefix = uniquePrefix("decideargs");
// One token_bucket rule, 10 per second, its field "t1" (decide.lua ARGV).
const SPEC = "tb,10,1000,10,1,1,t1,0,";
const T0 = 1_700_000_000_000;
const call = (key: string, ...requests: string[]) =>
  runDecideScript(redis, [1, key, 1, SPEC, requests.length, ...requests]);

afterAll(async () => {
  await deleteByPrefix(redis, prefix);
  redis.disconnect();
});

describe("decide.lua request arguments", () => {
  it("decides well-formed requests in order, with explicit time or Redis time", async () => {
    const reply = (await call(
      `${prefix}{t}2Kk1`,
      `${T0},1,,0,1,1,1,0`,
      `${T0},1,,0,1,1,1,0`,
      `${T0},0,,0,1,1,1,0`,
    )) as number[];
    // Per request: now, committed, then per rule: allowed, remaining, reset, retry, next.
    expect(reply).toHaveLength(3 * 7);
    expect(reply.slice(0, 4)).toEqual([T0, 1, 1, 9]);
    expect(reply.slice(7, 11)).toEqual([T0, 1, 1, 8]);
    expect(reply.slice(14, 18)).toEqual([T0, 0, 1, 8]); // a peek consumes nothing
    const now = (await call(`${prefix}{t}2Kk2`, ",1,,0,1,1,1,0")) as number[];
    expect(now[0]).toBeGreaterThan(T0); // Redis TIME
    expect(now.slice(1, 4)).toEqual([1, 1, 9]);
  });

  it.each([
    ["a rule's field missing", `${T0},1,,0,1,1,1`],
    ["a field too many", `${T0},1,,0,1,1,1,0,7`],
    ["a rule count that is not a number", `${T0},1,,0,x,1,1,0`],
    ["a key number that is not a number", `${T0},1,,0,1,1,k,0`],
    ["a TTL floor that is not a number", `${T0},1,,soon,1,1,1,0`],
    ["more rules announced than sent", `${T0},1,,0,2,1,1,0`],
  ])("refuses %s, naming the argument, and writes nothing", async (_, request) => {
    const key = `${prefix}{t}2Kbad`;
    await expect(call(key, `${T0},1,,0,1,1,1,0`, request)).rejects.toThrow(`malformed request fields in ${request}`);
    expect(await keysByPrefix(redis, key)).toEqual([]);
  });

  it("refuses a second key for a rule other than sliding_log (only its penalty has one), and writes nothing", async () => {
    const key = `${prefix}{t}2Ksecond`;
    await expect(
      runDecideScript(redis, [2, key, `${key}x`, 1, SPEC, 2, `${T0},1,,0,1,1,1,0`, `${T0},1,,0,1,1,1,2`]),
    ).rejects.toThrow("only a sliding_log rule has a second key");
    expect(await keysByPrefix(redis, key)).toEqual([]);
  });
});
