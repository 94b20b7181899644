/**
 * Housekeeping of the decide function libraries (decideScript.ts): each version of Sluice loads its
 * own library, named after its script's hash (`sluice_<16 hex>`), and Redis keeps every one of them
 * (persisted and replicated like data) until it is deleted. This removes the libraries no running
 * instance uses.
 *
 * Contract
 * - Heartbeat: every instance writes `<heartbeatPrefix>live:<its library>` (PX `heartbeatTtlMs`)
 *   before it loads its library and every `heartbeatTtlMs / 3` after, so a library with a live
 *   heartbeat is one some running instance uses.
 * - Removal: on each beat an instance lists the libraries on every master (FUNCTION LIST) whose
 *   name is `<libraryPrefix><16 hex>` (nothing else is ever touched) and deletes those other than
 *   its own that have had no live heartbeat for `graceMs`: the first time one is seen without a
 *   heartbeat it is marked (`<heartbeatPrefix>orphan:<name>`, PX 2 x graceMs: the key's remaining
 *   life tells how long ago), and it is deleted on a beat at least `graceMs` later if it still has
 *   none (a heartbeat meanwhile clears the mark). The grace covers a rolling upgrade from a
 *   version that writes no heartbeat (it keeps its library while it runs, about an hour) and an
 *   instance between its load and its first beat.
 * - Safe either way: a library deleted while some instance still calls it is loaded again by that
 *   instance on its next call (FCALL reports it missing, decideScript.ts), never a failed decision.
 * - Heartbeat keys are under SLUICE_REDIS_PREFIX like every key Sluice writes (an ACL user limited
 *   to `~<prefix>*` can write them). Libraries belong to the whole Redis server, so two deployments
 *   of different versions under different prefixes of one Redis do not see each other's heartbeats:
 *   each deletes the other's library about once per grace, and the other reloads it on its next
 *   call (above). A bounded cost, against keys outside the prefix.
 * - Never throws: a Redis that is down or refuses functions (an ACL, Redis < 7) skips the pass.
 */
import type { Cluster, Redis } from "ioredis";
import type { RedisClient } from "../redis/connect";
import { decideLibrary } from "./decideScript";

export interface LibraryHousekeeping {
  /** Name prefix of the libraries this housekeeping owns (`sluice_`); names are this and 16 hex. */
  libraryPrefix: string;
  /** Prefix of the heartbeat and orphan keys. */
  heartbeatPrefix: string;
  heartbeatTtlMs: number;
  graceMs: number;
}

/** The housekeeping of an instance whose keys are under `redisPrefix` (SLUICE_REDIS_PREFIX). */
export const housekeepingFor = (redisPrefix: string): LibraryHousekeeping => ({
  libraryPrefix: "sluice_",
  heartbeatPrefix: `${redisPrefix}decide-library:`,
  heartbeatTtlMs: 180_000,
  graceMs: 3_600_000,
});

const liveKey = (h: LibraryHousekeeping, name: string) => `${h.heartbeatPrefix}live:${name}`;
const orphanKey = (h: LibraryHousekeeping, name: string) => `${h.heartbeatPrefix}orphan:${name}`;

function masters(redis: RedisClient): Redis[] {
  return redis.isCluster ? (redis as Cluster).nodes("master") : [redis as Redis];
}

/** Announces that this instance uses `library` for the next heartbeatTtlMs. */
export async function heartbeatLibrary(redis: RedisClient, library: string, h: LibraryHousekeeping): Promise<void> {
  await redis.set(liveKey(h, library), "1", "PX", h.heartbeatTtlMs);
}

/** Library names in a FUNCTION LIST reply: [["library_name", name, ...], ...]. */
function libraryNames(reply: unknown): string[] {
  if (!Array.isArray(reply)) return [];
  return reply.flatMap((entry) => {
    if (!Array.isArray(entry)) return [];
    const at = entry.indexOf("library_name");
    return at >= 0 && typeof entry[at + 1] === "string" ? [entry[at + 1] as string] : [];
  });
}

/**
 * One removal pass (see the contract): resolves to the libraries deleted (a name once however many
 * masters held it).
 */
export async function removeUnusedLibraries(
  redis: RedisClient,
  own: string,
  h: LibraryHousekeeping,
): Promise<string[]> {
  const shaped = new RegExp(`^${h.libraryPrefix.replace(/[^A-Za-z0-9_]/g, "\\$&")}[0-9a-f]{16}$`);
  const nodes = masters(redis);
  const held = await Promise.all(
    nodes.map(async (node) =>
      libraryNames(await node.call("FUNCTION", "LIST", "LIBRARYNAME", `${h.libraryPrefix}*`)).filter(
        (name) => shaped.test(name) && name !== own,
      ),
    ),
  );
  const candidates = [...new Set(held.flat())];
  const deleted: string[] = [];
  for (const name of candidates) {
    if ((await redis.exists(liveKey(h, name))) === 1) {
      await redis.del(orphanKey(h, name));
      continue;
    }
    if (h.graceMs > 0) {
      // First seen without a heartbeat: marked, the mark's remaining life counting the grace down.
      const marked = await redis.set(orphanKey(h, name), "1", "PX", 2 * h.graceMs, "NX");
      if (marked === "OK" || (await redis.pttl(orphanKey(h, name))) > h.graceMs) continue;
    }
    await Promise.all(
      nodes.map((node, i) =>
        held[i]!.includes(name) ? node.call("FUNCTION", "DELETE", name).catch(() => undefined) : undefined,
      ),
    );
    await redis.del(orphanKey(h, name));
    deleted.push(name);
  }
  return deleted;
}

/**
 * Heartbeats this instance's library now and every heartbeatTtlMs / 3, each beat followed by a
 * removal pass; the timer does not keep the process alive. Returns its stop function.
 */
export function startLibraryHousekeeping(
  redis: RedisClient,
  h: LibraryHousekeeping,
  library: string = decideLibrary().library,
  log: (line: string) => void = console.warn,
): { first: Promise<void>; stop: () => void } {
  const beat = async () => {
    try {
      await heartbeatLibrary(redis, library, h);
      const deleted = await removeUnusedLibraries(redis, library, h);
      if (deleted.length > 0) log(`[sluice] deleted decide libraries no running instance uses: ${deleted.join(", ")}`);
    } catch {
      // Down, or functions refused: the next beat tries again.
    }
  };
  const timer = setInterval(() => void beat(), Math.max(1, Math.floor(h.heartbeatTtlMs / 3)));
  timer.unref();
  return { first: beat(), stop: () => clearInterval(timer) };
}
