import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { RedisClient } from "../../redis/connect";
import { loadScript } from "./loadScript";
import { luaScript } from "./luaScript";

type Args = unknown[];

/** A client whose defined command answers `reply`; records definitions, command calls and EVALs. */
function fakeClient(reply: (args: Args) => Promise<unknown>) {
  const defined: { name: string; lua: string }[] = [];
  const calls: Args[] = [];
  const evals: Args[] = [];
  const client: Record<string, unknown> = {
    defineCommand(name: string, { lua }: { lua: string }) {
      defined.push({ name, lua });
      client[name] = (...args: Args) => {
        calls.push(args);
        return reply(args);
      };
    },
    eval: async (...args: Args) => {
      evals.push(args);
      return "by eval";
    },
  };
  return { client: client as unknown as RedisClient, defined, calls, evals };
}

describe("luaScript", () => {
  it("reads its entry point with the includes inlined, and names it by its SHA-1", () => {
    const script = luaScript("give_back.lua", "testGiveBack");
    expect(script.source()).toBe(loadScript("give_back.lua"));
    expect(script.source()).not.toMatch(/--!include/);
    expect(script.sha()).toBe(createHash("sha1").update(script.source()).digest("hex"));
  });

  it("defines its command once per client and passes the arguments as given (arrays unspread)", async () => {
    const script = luaScript("release.lua", "testRelease");
    const { client, defined, calls } = fakeClient(async () => 2);
    expect(await script.run(client, 2, ["k1", "k2"], "lease", "")).toBe(2);
    expect(await script.run(client, 1, ["k1"], "lease", "5")).toBe(2);
    expect(defined).toEqual([{ name: "testRelease", lua: script.source() }]);
    expect(calls).toEqual([
      [2, ["k1", "k2"], "lease", ""],
      [1, ["k1"], "lease", "5"],
    ]);
    const other = fakeClient(async () => 0);
    await script.run(other.client, 1, ["k1"], "lease", "");
    expect(other.defined).toHaveLength(1);
  });

  it("sends a call that still misses the script (NOSCRIPT) as EVAL of its source, with the same arguments", async () => {
    const script = luaScript("release.lua", "testReleaseFlushed");
    const { client, evals } = fakeClient(() => Promise.reject(new Error("NOSCRIPT No matching script.")));
    expect(await script.run(client, 1, ["k1"], "lease", "")).toBe("by eval");
    expect(evals).toEqual([[script.source(), 1, ["k1"], "lease", ""]]);
  });

  it("rejects with any other error as Redis sent it, without an EVAL", async () => {
    const script = luaScript("release.lua", "testReleaseBroken");
    const { client, evals } = fakeClient(() => Promise.reject(new Error("ERR sluice: malformed")));
    await expect(script.run(client, 1, ["k1"], "lease", "")).rejects.toThrow("ERR sluice: malformed");
    expect(evals).toEqual([]);
  });
});
