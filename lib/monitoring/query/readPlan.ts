/**
 * The reads of one query step, collected first and then sent together: one pipeline on a single
 * node, one per scope (hash tag) on a Cluster (lib/monitoring/record/monitoringPipeline.ts).
 * `run` rejects with AppError `limiter_unavailable` (503) when Redis cannot answer in time; the
 * replies are then read back through the handles `add` returned. `pairs` and `scored` parse
 * HGETALL and ZRANGE ... WITHSCORES replies defensively (anything else reads as empty).
 */
import { AppError } from "../../http/errors";
import type { RedisClient } from "../../redis/connect";
import { runPipelines, type Command } from "../record/monitoringPipeline";

export interface ReadHandle {
  scope: string;
  index: number;
}

export type Replies = (handle: ReadHandle) => unknown;

export class ReadPlan {
  private readonly groups = new Map<string, Command[]>();

  add(scope: string, command: Command): ReadHandle {
    let commands = this.groups.get(scope);
    if (!commands) this.groups.set(scope, (commands = []));
    commands.push(command);
    return { scope, index: commands.length - 1 };
  }

  async run(redis: RedisClient, timeoutMs: number): Promise<Replies> {
    let replies: Map<string, unknown[]>;
    try {
      replies = await runPipelines(redis, this.groups, timeoutMs);
    } catch {
      throw new AppError(
        "limiter_unavailable",
        "Monitoring data cannot be read right now: Redis is unavailable or too slow. Retry shortly.",
        { headers: { "Retry-After": "1" } },
      );
    }
    return (handle) => replies.get(handle.scope)?.[handle.index];
  }
}

/** Field/value pairs of an HGETALL reply (a flat array, or an object when ioredis transformed it). */
export function pairs(reply: unknown): [string, string][] {
  if (Array.isArray(reply)) {
    const out: [string, string][] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) out.push([String(reply[i]), String(reply[i + 1])]);
    return out;
  }
  if (reply && typeof reply === "object")
    return Object.entries(reply as Record<string, unknown>).map(([k, v]) => [k, String(v)]);
  return [];
}

/** Member/score pairs of a ZRANGE ... WITHSCORES reply; non-numeric scores are skipped. */
export function scored(reply: unknown): [string, number][] {
  return pairs(reply)
    .map(([member, score]): [string, number] => [member, Number(score)])
    .filter(([, score]) => Number.isFinite(score));
}
