/**
 * Removal of decide libraries no running instance uses (decideLibraries.ts, issue 28 point 16),
 * against the shared Redis: every library here is the test's own, named under a prefix of this run
 * (`h28t<random>_<16 hex>`, each with a trivial function), and so are the heartbeat keys; other
 * runs' libraries (`sluice_…`) never match the prefix and are never touched. The test deletes what
 * it created.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { deleteByPrefix, plainRedis } from "@/test/support/testRedis";
import {
  heartbeatLibrary,
  removeUnusedLibraries,
  startLibraryHousekeeping,
  type LibraryHousekeeping,
} from "./decideLibraries";

const redis = plainRedis();
const run = randomBytes(4).toString("hex");
const created: string[] = [];

afterAll(async () => {
  for (const name of created) await redis.call("FUNCTION", "DELETE", name).catch(() => undefined);
  await deleteByPrefix(redis, `h28hb${run}:`);
  redis.disconnect();
});

function housekeeping(label: string, graceMs: number): LibraryHousekeeping {
  return {
    libraryPrefix: `h28${label}${run}_`,
    heartbeatPrefix: `h28hb${run}:${label}:`,
    heartbeatTtlMs: 60_000,
    graceMs,
  };
}

/** Loads a library of this run named `<prefix><16 hex>`; returns its name. */
async function library(prefix: string): Promise<string> {
  const name = `${prefix}${randomBytes(8).toString("hex")}`;
  await redis.call(
    "FUNCTION",
    "LOAD",
    `#!lua name=${name}\nredis.register_function('f_${name}', function() return 1 end)`,
  );
  created.push(name);
  return name;
}

async function loaded(prefix: string): Promise<string[]> {
  const reply = (await redis.call("FUNCTION", "LIST", "LIBRARYNAME", `${prefix}*`)) as unknown[][];
  return reply.map((entry) => entry[entry.indexOf("library_name") + 1] as string).sort();
}

describe("decide libraries no running instance uses", () => {
  it("are deleted: the instance's own and those with a live heartbeat stay, nothing of another prefix is touched", async () => {
    const h = housekeeping("t", 0);
    const [own, live, dead, otherDead] = [
      await library(h.libraryPrefix),
      await library(h.libraryPrefix),
      await library(h.libraryPrefix),
      await library(h.libraryPrefix),
    ];
    const foreign = await library(`h28u${run}_`); // another deployment's prefix: never ours to delete
    const odd = await library(`${h.libraryPrefix}x`); // our prefix, but not <16 hex>: not a decide library
    await heartbeatLibrary(redis, own, h);
    await heartbeatLibrary(redis, live, h);

    expect((await removeUnusedLibraries(redis, own, h)).sort()).toEqual([dead, otherDead].sort());
    expect(await loaded(h.libraryPrefix)).toEqual([own, live, odd].sort());
    expect(await loaded(`h28u${run}_`)).toEqual([foreign]);
    // A second pass finds nothing more to delete.
    expect(await removeUnusedLibraries(redis, own, h)).toEqual([]);
  });

  it("waits out the grace before deleting one seen without a heartbeat; a heartbeat meanwhile keeps it", async () => {
    const h = housekeeping("g", 400);
    const own = await library(h.libraryPrefix);
    const dead = await library(h.libraryPrefix);
    const back = await library(h.libraryPrefix);
    await heartbeatLibrary(redis, own, h);

    // First seen without a heartbeat: both marked, neither deleted.
    expect(await removeUnusedLibraries(redis, own, h)).toEqual([]);
    // One of them is used again (an instance of its version started).
    await heartbeatLibrary(redis, back, h);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await removeUnusedLibraries(redis, own, h)).toEqual([dead]);
    expect(await loaded(h.libraryPrefix)).toEqual([own, back].sort());
  });

  it("an instance's housekeeping heartbeats its own library first, then removes the unused ones", async () => {
    const h = housekeeping("s", 0);
    const own = await library(h.libraryPrefix);
    const dead = await library(h.libraryPrefix);
    const logged: string[] = [];
    const running = startLibraryHousekeeping(redis, h, own, (line) => void logged.push(line));
    try {
      await running.first;
      expect(await redis.pttl(`${h.heartbeatPrefix}live:${own}`)).toBeGreaterThan(0);
      expect(await loaded(h.libraryPrefix)).toEqual([own]);
      expect(logged).toEqual([`[sluice] deleted decide libraries no running instance uses: ${dead}`]);
    } finally {
      running.stop();
    }
  });
});
