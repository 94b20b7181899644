/**
 * Sends grouped commands as pipelines and returns each command's reply, group by group.
 *
 * - One node: every group in ONE pipeline (one round trip). Cluster: one pipeline per group, all
 *   at once; a group holds keys of one hash tag (lib/monitoring/record/monitoringKeys.ts), hence one slot.
 * - Under one deadline (`withDeadline`): rejects at once while the connection is known to be down,
 *   and after `timeoutMs` otherwise. Any command's error rejects the whole call (the caller treats
 *   the data as not written or not read). Errors are `LimiterUnavailableError`s (lib/redis/deadline.ts).
 * - `atomic` (writes): each pipeline is a MULTI/EXEC transaction. Redis runs none of it until EXEC
 *   arrives, so a writer killed or cut off half-way through sending leaves nothing behind; a plain
 *   pipeline would leave the commands that arrived applied, e.g. an HINCRBY whose PEXPIRE never
 *   came: a key without a TTL, kept forever (test/faults/instanceKilled.int.test.ts).
 */
import type { ChainableCommander } from "ioredis";
import { withDeadline } from "../../redis/deadline";
import type { RedisClient } from "../../redis/connect";

export type Command = [command: string, ...args: (string | number)[]];

async function execPipeline(redis: RedisClient, commands: Command[], atomic: boolean): Promise<unknown[]> {
  const pipeline: ChainableCommander = atomic ? redis.multi() : redis.pipeline();
  for (const [name, ...args] of commands) pipeline.call(name, args);
  const replies = (await pipeline.exec()) ?? [];
  if (replies.length !== commands.length)
    throw new Error(`pipeline answered ${replies.length} of ${commands.length} commands`);
  return replies.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}

export async function runPipelines(
  redis: RedisClient,
  groups: Map<string, Command[]>,
  timeoutMs: number,
  options: { atomic?: boolean } = {},
): Promise<Map<string, unknown[]>> {
  const atomic = options.atomic ?? false;
  const entries = [...groups].filter(([, commands]) => commands.length > 0);
  const out = new Map<string, unknown[]>();
  if (entries.length === 0) return out;
  await withDeadline(
    redis,
    async () => {
      if (redis.isCluster) {
        const replies = await Promise.all(entries.map(([, commands]) => execPipeline(redis, commands, atomic)));
        entries.forEach(([group], i) => out.set(group, replies[i]!));
        return;
      }
      const replies = await execPipeline(
        redis,
        entries.flatMap(([, commands]) => commands),
        atomic,
      );
      let at = 0;
      for (const [group, commands] of entries) {
        out.set(group, replies.slice(at, at + commands.length));
        at += commands.length;
      }
    },
    timeoutMs,
  );
  return out;
}
