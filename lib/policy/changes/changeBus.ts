/**
 * Change notifications between instances, over Redis pub/sub.
 *
 * Contract
 * - `publishChange(tenantId)` is called after a change to a tenant's keys or rules has COMMITTED.
 *   It never throws: if Redis is down the change is saved anyway and every instance picks it up at
 *   its next periodic full refresh (lib/policy/compiled/accessCache.ts); it resolves to false then,
 *   so the admin API can say so (lib/policy/changes/changeReach.ts).
 * - `subscribeChanges` delivers each tenant id published by any instance (this one included) and
 *   reports (re)subscriptions once Redis confirmed them, after which the caller reloads everything:
 *   messages published while the subscriber was disconnected are lost (pub/sub keeps nothing).
 * - `publishReset(tenantId)` is called after counters of the tenant were reset in Redis: every
 *   instance drops its cached refusals of that tenant (`onReset`), no reload. It rejects when the
 *   notice could not be sent, so the admin API can say the reset is not yet in force everywhere
 *   (cached refusals would otherwise last until their own retry time). Reset notices travel on the
 *   same channel as `reset:<tenantId>` (a tenant id never contains `:`).
 * - On one node (or Sentinel) the subscriber PINGs every SUBSCRIBER_PING_MS: a subscription only
 *   ever waits, so without it a link cut silently (no FIN or RST) would never be noticed; after
 *   SILENT_RECONNECT_MS of unanswered pings the connection is replaced (lib/redis/deadline.ts) and
 *   everything reloaded.
 */
import type { Cluster } from "ioredis";
import type { RedisClient } from "../../redis/connect";
import { withDeadline } from "../../redis/deadline";
import { subscribeOnCluster, SUBSCRIBER_CONNECTION_NAME } from "./clusterSubscription";
import { logOutage } from "../../config/plane";

export const changesChannel = (prefix: string): string => `${prefix}changes`;

export const SUBSCRIBER_PING_MS = 2_000;
const SUBSCRIBER_PING_TIMEOUT_MS = 1_000;

/** True when the notice was sent; false (logged) when Redis could not take it. */
export async function publishChange(redis: RedisClient, prefix: string, tenantId: string): Promise<boolean> {
  try {
    await redis.publish(changesChannel(prefix), tenantId);
    return true;
  } catch (error) {
    console.warn(
      `[sluice] could not announce a change of tenant ${tenantId} (other instances see it at their next full refresh): ${(error as Error).message}`,
    );
    return false;
  }
}

const RESET_PREFIX = "reset:";

export type ChangeMessage = { kind: "tenant"; tenantId: string } | { kind: "reset"; tenantId: string };

export function parseChangeMessage(message: string): ChangeMessage {
  if (message.startsWith(RESET_PREFIX)) return { kind: "reset", tenantId: message.slice(RESET_PREFIX.length) };
  return { kind: "tenant", tenantId: message };
}

export async function publishReset(redis: RedisClient, prefix: string, tenantId: string): Promise<void> {
  await redis.publish(changesChannel(prefix), RESET_PREFIX + tenantId);
}

export interface ChangeSubscription {
  close(): Promise<void>;
}

export function subscribeChanges(
  redis: RedisClient,
  prefix: string,
  handlers: { onChange: (tenantId: string) => void; onSubscribed: () => void; onReset?: (tenantId: string) => void },
): ChangeSubscription {
  const dispatch = (message: string) => {
    const parsed = parseChangeMessage(message);
    if (parsed.kind === "reset") handlers.onReset?.(parsed.tenantId);
    else handlers.onChange(parsed.tenantId);
  };
  if (redis.isCluster) {
    // Follows failovers of the subscribed node and reports each resubscription (see the module).
    const subscription = subscribeOnCluster(redis as Cluster, changesChannel(prefix), {
      onMessage: dispatch,
      onSubscribed: handlers.onSubscribed,
    });
    return {
      async close() {
        subscription.close();
      },
    };
  }
  // A subscribed connection can do nothing else: use a dedicated one, without a command timeout
  // (it only waits for messages), with an offline queue and no retry limit so the first SUBSCRIBE
  // waits for a connection (an instance starting while Redis is down would otherwise never
  // subscribe: ioredis re-subscribes on reconnect only what was once subscribed), and
  // autoResubscribe for every later reconnect, Sentinel failovers included
  // (lib/policy/changes/changeBus.int.test.ts, lib/redis/sentinel.int.test.ts).
  const subscriber = redis.duplicate({
    commandTimeout: undefined,
    enableOfflineQueue: true,
    maxRetriesPerRequest: null,
    autoResubscribe: true,
    connectionName: SUBSCRIBER_CONNECTION_NAME,
  } as never) as RedisClient;
  const channel = changesChannel(prefix);
  subscriber.on("message", (got: string, message: string) => {
    if (got === channel) dispatch(message);
  });
  // The subscription is reported only once Redis has confirmed it: the caller's "reload everything"
  // must not run before notices can arrive, or a change published in between is missed until the
  // next full refresh. "ready" follows every (re)connection, on the tick after ioredis wrote that
  // connection's SUBSCRIBE (the offline queue's first, autoResubscribe's later); Redis answers a
  // connection's commands in order, so a PING sent now is answered after the SUBSCRIBE is
  // confirmed (lib/policy/changes/changeBus.test.ts).
  subscriber.on("ready", () => {
    subscriber.ping().then(
      () => handlers.onSubscribed(),
      () => undefined, // the connection dropped: the next "ready" reports
    );
  });
  subscriber.on("error", () => {
    // The command client logs outages; the subscriber reconnects by itself.
  });
  subscriber
    .subscribe(channel)
    .catch((error: Error) =>
      logOutage(`[sluice] change subscription failed, relying on periodic refresh: ${error.message}`),
    );
  const ping = setInterval(() => {
    withDeadline(subscriber, () => subscriber.ping(), SUBSCRIBER_PING_TIMEOUT_MS).catch(() => undefined);
  }, SUBSCRIBER_PING_MS);
  ping.unref();
  return {
    async close() {
      clearInterval(ping);
      subscriber.disconnect();
    },
  };
}
