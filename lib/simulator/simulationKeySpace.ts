/**
 * The isolated key space of one simulation run: `<prefix>sim:<run id>:<pass>:` in front of the
 * limiter's usual `{tenantId}...` keys, so a replay never touches live counters, every key keeps the
 * tenant's hash tag (one Cluster slot), and two runs never share state.
 *
 * The keys a replay may write are collected as it goes (`add`) and deleted by `clear()`, which the
 * simulator calls in a `finally`: on success and on error alike. Deleting known keys needs no SCAN
 * (which would walk the whole keyspace, on every Cluster node). If even the delete fails (Redis
 * went away mid-run), the keys still expire: keys written with explicit time live at least
 * EXPLICIT_TIME_TTL_FLOOR_MS (lib/limiter/decide.ts) and at most their rule's window.
 */
import { randomBytes } from "node:crypto";
import type { RedisClient } from "../redis/connect";
import { withDeadline } from "../redis/deadline";

const DELETE_CHUNK = 500;

export class SimulationKeySpace {
  readonly runPrefix: string;
  private readonly keys = new Set<string>();

  constructor(
    private readonly redis: RedisClient,
    basePrefix: string,
    private readonly timeoutMs: number,
    runId = randomBytes(6).toString("base64url").replace(/[^A-Za-z0-9]/g, "x"),
  ) {
    this.runPrefix = `${basePrefix}sim:${runId}:`;
  }

  /** The prefix of one pass of the run (`c` current, `n` candidate). */
  passPrefix(pass: string): string {
    return `${this.runPrefix}${pass}:`;
  }

  add(key: string): void {
    this.keys.add(key);
  }

  get size(): number {
    return this.keys.size;
  }

  /** Deletes every key added (UNLINK: freed in the background). Keys of one run share a slot. */
  async clear(): Promise<void> {
    const keys = [...this.keys];
    const chunks: string[][] = [];
    for (let i = 0; i < keys.length; i += DELETE_CHUNK) chunks.push(keys.slice(i, i + DELETE_CHUNK));
    // Sent together: one connection pipelines them.
    await withDeadline(this.redis, () => Promise.all(chunks.map((chunk) => this.redis.unlink(...chunk))), this.timeoutMs);
    this.keys.clear();
  }
}
