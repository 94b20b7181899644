/**
 * One pub/sub channel subscribed on a Redis Cluster, following failovers, and saying when it
 * (re)subscribed.
 *
 * Contract
 * - Subscribes on a dedicated connection to the master that serves the channel's slot (PUBLISH on
 *   a Cluster reaches every node, so any node would do; the slot's master is a choice that is the
 *   same on every instance and that an operator or a test can find).
 * - When that connection ends (node killed, failover, network), it asks the Cluster to refresh its
 *   slot map and subscribes again on the slot's (new) master, every `retryMs` until it works. No
 *   reconnection to a dead node is kept waiting, and nothing queues meanwhile.
 * - `onSubscribed` runs after every successful SUBSCRIBE: messages published while no connection
 *   was subscribed are lost (pub/sub keeps nothing), so the caller reloads everything then.
 * - `close()` ends it for good.
 *
 * Why not ioredis' own Cluster subscriber: it picks a random node (often a replica) and, when that
 * node dies, moves to another without telling anyone, so the messages lost meanwhile went unnoticed
 * until the next periodic refresh (up to 15 s of stale rules).
 */
import { Redis, type Cluster } from "ioredis";
import { connectionName } from "../../config/plane";

/** This thread's change subscriber's connection name: `sluice-changes` on the data plane's (lib/config/plane.ts). */
export const SUBSCRIBER_CONNECTION_NAME = connectionName("changes");

export interface ClusterSubscriptionHandlers {
  onMessage: (message: string) => void;
  onSubscribed: () => void;
}

export interface ClusterSubscription {
  close(): void;
}

/** "host:port" of the master serving `slot` in the Cluster's current slot map, if known. */
function masterOf(cluster: Cluster, slot: number): { host: string; port: number } | null {
  const key = cluster.slots[slot]?.[0];
  if (!key) return null;
  const at = key.lastIndexOf(":");
  return { host: key.slice(0, at), port: Number(key.slice(at + 1)) };
}

export function subscribeOnCluster(
  cluster: Cluster,
  channel: string,
  handlers: ClusterSubscriptionHandlers,
  retryMs = 250,
): ClusterSubscription {
  let slot: number | null = null;
  let connection: Redis | null = null;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  const retryLater = () => {
    if (closed || timer) return;
    // The map may still name the dead master until the Cluster has promoted its replica.
    if (cluster.status === "ready") cluster.refreshSlotsCache();
    timer = setTimeout(() => {
      timer = null;
      attempt();
    }, retryMs);
    timer.unref();
  };

  const attempt = () => {
    if (closed) return;
    if (slot === null) {
      // Asked once (this also connects the lazy Cluster client and fills its slot map).
      cluster.call("CLUSTER", "KEYSLOT", channel).then((reply) => {
        slot = Number(reply);
        attempt();
      }, retryLater);
      return;
    }
    const node = masterOf(cluster, slot);
    if (!node) {
      retryLater();
      return;
    }
    const { username, password, tls, connectTimeout } = cluster.options.redisOptions ?? {};
    const redis = new Redis({
      host: node.host,
      port: node.port,
      username,
      password,
      tls,
      connectTimeout,
      connectionName: SUBSCRIBER_CONNECTION_NAME,
      // This connection only waits for messages: no command timeout, no reconnecting to the same
      // node (it may be dead for good); `end` below picks the slot's master again instead.
      retryStrategy: () => null,
      autoResubscribe: false,
      maxRetriesPerRequest: 0,
    });
    connection = redis;
    redis.on("error", () => undefined); // the command client logs outages; this one just retries
    redis.on("message", (got: string, message: string) => {
      if (got === channel) handlers.onMessage(message);
    });
    redis.once("end", () => {
      if (connection === redis) connection = null;
      retryLater();
    });
    redis.subscribe(channel).then(
      () => handlers.onSubscribed(),
      () => redis.disconnect(), // "end" follows and retries
    );
  };

  attempt();
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      connection?.disconnect();
      connection = null;
    },
  };
}
