/**
 * Change notifications between instances, over Redis pub/sub.
 *
 * Contract
 * - `publishChange(tenantId)` is called after a change to a tenant's keys or rules has COMMITTED.
 *   It never throws: if Redis is down the change is saved anyway and every instance picks it up at
 *   its next periodic full refresh (lib/enforce/accessCache.ts).
 * - `subscribeChanges` delivers each tenant id published by any instance (this one included) and
 *   reports (re)subscriptions, after which the caller reloads everything: messages published while
 *   the subscriber was disconnected are lost (pub/sub keeps nothing).
 */
import type { Cluster } from "ioredis";
import type { RedisClient } from "../redis/connect";
import { subscribeOnCluster } from "./clusterSubscription";

export const changesChannel = (prefix: string): string => `${prefix}changes`;

export async function publishChange(redis: RedisClient, prefix: string, tenantId: string): Promise<void> {
  try {
    await redis.publish(changesChannel(prefix), tenantId);
  } catch (error) {
    console.warn(`[sluice] could not announce a change of tenant ${tenantId} (other instances see it at their next full refresh): ${(error as Error).message}`);
  }
}

export interface ChangeSubscription {
  close(): Promise<void>;
}

export function subscribeChanges(
  redis: RedisClient,
  prefix: string,
  handlers: { onChange: (tenantId: string) => void; onSubscribed: () => void },
): ChangeSubscription {
  if (redis.isCluster) {
    // Follows failovers of the subscribed node and reports each resubscription (see the module).
    const subscription = subscribeOnCluster(redis as Cluster, changesChannel(prefix), { onMessage: handlers.onChange, onSubscribed: handlers.onSubscribed });
    return {
      async close() {
        subscription.close();
      },
    };
  }
  // A subscribed connection can do nothing else: use a dedicated one, without a command timeout
  // (it only waits for messages) and with an offline queue so SUBSCRIBE is replayed on reconnect.
  const subscriber = redis.duplicate({ commandTimeout: undefined, enableOfflineQueue: true, autoResubscribe: true } as never) as RedisClient;
  const channel = changesChannel(prefix);
  subscriber.on("message", (got: string, tenantId: string) => {
    if (got === channel) handlers.onChange(tenantId);
  });
  // "ready" follows every (re)connection; with autoResubscribe the channel is subscribed again.
  subscriber.on("ready", () => handlers.onSubscribed());
  subscriber.on("error", () => {
    // The command client logs outages; the subscriber reconnects by itself.
  });
  subscriber.subscribe(channel).catch((error: Error) => console.warn(`[sluice] change subscription failed, relying on periodic refresh: ${error.message}`));
  return {
    async close() {
      subscriber.disconnect();
    },
  };
}
