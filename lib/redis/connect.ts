/**
 * Builds ioredis clients (single node, Cluster, or a master found through Redis Sentinel) with
 * Sluice's failure behaviour:
 * - lazy: nothing connects until the first command (so `next build` never touches Redis);
 * - fail fast: a command is rejected after `timeoutMs` (ioredis `commandTimeout`; on the limiter's
 *   connection `withDeadline` decides and commandTimeout is only a backstop), is never retried,
 *   and while the connection is down commands are rejected instead of piling up in an offline queue;
 * - reconnects in the background with a capped backoff, so service resumes as soon as Redis answers;
 *   on a Cluster it follows slot moves and failovers; with Sentinel it asks the sentinels for the
 *   current master on every reconnection and drops the connection as soon as they announce a
 *   failover (`failoverDetector`);
 * - named: `name` (e.g. "limiter") labels its outage log lines and is its CLIENT SETNAME
 *   (`sluice-<name>`), so an operator reading CLIENT LIST sees which part holds which connection;
 * - TLS (managed Redis): every data node when the URL is `rediss://` (ioredis itself applies it to a
 *   single node only: each Cluster node and the Sentinel master get it here), the sentinels when
 *   they are listed as `rediss://`; all with `tls` (CA, client certificate, SNI name), always
 *   verified (lib/config/redisTls.ts).
 */
import "server-only";
import type { ConnectionOptions } from "node:tls";
import { Cluster, Redis, type RedisOptions } from "ioredis";
import type { RedisTlsSettings } from "../config/redisTls";
import { parseNodeList, parseNodeUrls, type NodeAddress } from "../config/nodeList";
import { connectionName, logOutage } from "../config/plane";

export type RedisClient = Redis | Cluster;

export interface ConnectOptions {
  url: string;
  cluster: boolean;
  timeoutMs: number;
  /** ioredis `commandTimeout`; `timeoutMs` unless given (see backstopCommandTimeoutMs). */
  commandTimeoutMs?: number;
  autoPipelining: boolean;
  /** What the connection is for: "limiter", "monitoring"... */
  name?: string;
  /** Find the master through these sentinels (REDIS_URL then only gives credentials and database). */
  sentinel?: SentinelOptions;
  /** CA, client certificate and SNI name of every TLS connection (`rediss://`). */
  tls?: RedisTlsSettings;
}

export interface SentinelOptions {
  sentinels: NodeAddress[];
  /** The master's name in the sentinels' configuration (`sentinel monitor <name> ...`). */
  name: string;
  /** Password of the sentinels themselves, if they require one. */
  password?: string;
  /** The sentinels speak TLS (listed as `rediss://`). */
  tls?: boolean;
}

/**
 * Reconnect delay: fast at first (Redis restarts are usually quick), never above 500 ms, so service
 * is back within 1 s of Redis answering however long the outage was (a refused connection attempt
 * costs next to nothing; test/faults/redisRestart.int.test.ts).
 */
export const MAX_RECONNECT_DELAY_MS = 500;

function reconnectDelayMs(attempt: number): number {
  return Math.min(50 * attempt, MAX_RECONNECT_DELAY_MS);
}

/**
 * ioredis's own command timeout for a connection whose every command runs under `withDeadline`
 * (lib/redis/deadline.ts), e.g. the limiter's: only a backstop. Its timer knows nothing of
 * event-loop lag, so it must never fire before withDeadline, which waits at most 2 x the timeout
 * plus the lag it measures.
 */
export function backstopCommandTimeoutMs(timeoutMs: number): number {
  return 3 * timeoutMs + 250;
}

function nodeOptions(options: ConnectOptions): RedisOptions {
  return {
    lazyConnect: true,
    commandTimeout: options.commandTimeoutMs ?? options.timeoutMs,
    connectTimeout: Math.max(options.timeoutMs * 10, 1000),
    maxRetriesPerRequest: 0,
    // Commands queue only while a connection is being made (the first, lazy one, or a reconnect
    // attempt), each under its caller's deadline; a failed attempt rejects them (no retries), and
    // between attempts `withDeadline` (deadline.ts) rejects at once.
    enableOfflineQueue: true,
    retryStrategy: reconnectDelayMs,
    enableAutoPipelining: options.autoPipelining,
    connectionName: options.name ? connectionName(options.name) : undefined,
  };
}

/** Node's TLS options for a connection to Redis: verified against `ca` (else the system's CAs). */
export function tlsOptions(settings: RedisTlsSettings = {}): ConnectionOptions {
  const options: ConnectionOptions = {};
  if (settings.ca !== undefined) options.ca = settings.ca;
  if (settings.cert !== undefined) options.cert = settings.cert;
  if (settings.key !== undefined) options.key = settings.key;
  if (settings.servername !== undefined) options.servername = settings.servername;
  return options;
}

const usesTls = (url: URL) => url.protocol === "rediss:";

/** Username and password of a `redis://user:pass@...` URL, for the nodes of a Cluster or Sentinel set. */
function credentialsOf(url: URL): Pick<RedisOptions, "username" | "password"> {
  return { username: url.username || undefined, password: url.password ? decodeURIComponent(url.password) : undefined };
}

/**
 * Logs an outage once when it starts and once when it ends, instead of one line per reconnect
 * attempt (ioredis emits "error" for each, and prints them all when nobody listens).
 */
function logOutagesOnce(client: RedisClient, label: string): RedisClient {
  let down = false;
  client.on("error", (error: Error) => {
    if (down) return;
    down = true;
    logOutage(`[sluice] redis ${label} unavailable: ${error.message}`);
  });
  client.on("ready", () => {
    if (!down) return;
    down = false;
    logOutage(`[sluice] redis ${label} is back`);
  });
  return client;
}

/** A node failing again this soon after it was logged is the same outage flapping (the slot map
 * names it again until its replica has taken over): not logged again. */
const NODE_LOG_QUIET_MS = 60_000;

/**
 * On a Cluster, a dead node does not make the client emit "error" (its other slots still work):
 * logs a node once when it fails, and once when the refreshed slot map no longer needs it (its
 * replica took over) or it answers again, however many reconnection attempts fail in between.
 */
function logNodeOutagesOnce(cluster: Cluster): Cluster {
  const down = new Set<string>();
  const loggedDownAt = new Map<string, number>();
  const loggedEnd = new Set<string>();
  cluster.on("node error", (error: Error, key: string) => {
    if (down.has(key)) return;
    down.add(key);
    const last = loggedDownAt.get(key);
    if (last !== undefined && Date.now() - last < NODE_LOG_QUIET_MS) return;
    loggedDownAt.set(key, Date.now());
    loggedEnd.delete(key);
    logOutage(`[sluice] redis cluster node ${key} unavailable: ${error.message}`);
  });
  cluster.on("refresh", () => {
    for (const key of down) {
      const node = cluster.nodes("all").find((n) => `${n.options.host}:${n.options.port}` === key);
      const serving = cluster.slots.some((owners) => owners?.includes(key));
      if (serving && node?.status !== "ready") continue;
      down.delete(key);
      if (loggedEnd.has(key)) continue;
      loggedEnd.add(key);
      logOutage(
        `[sluice] redis cluster node ${key} ${serving ? "is back" : "no longer serves slots: the cluster failed over"}`,
      );
    }
  });
  return cluster;
}

/**
 * A Cluster client that lost every node keeps the commands sent meanwhile in its offline queue
 * and runs them when it reconnects, however late: decisions long since answered by their fail
 * mode would then consume quota (a test saw a whole limit used up that way). Those commands are
 * rejected as soon as the client knows it is down; later ones are refused by `isKnownDown`.
 * (`flushQueue` is ioredis' own method for this, not in its typings; checked for at run time.)
 */
function dropQueuedCommandsWhenDown(cluster: Cluster): Cluster {
  const flush = (cluster as unknown as { flushQueue?: (error: Error) => void }).flushQueue;
  if (typeof flush !== "function") return cluster;
  cluster.on("reconnecting", () => flush.call(cluster, new Error("Redis Cluster unavailable: queued command dropped")));
  return cluster;
}

export function createRedisClient(options: ConnectOptions): RedisClient {
  const base = nodeOptions(options);
  const role = options.name ? ` (${options.name})` : "";
  if (options.sentinel) {
    const { sentinels, name, password } = options.sentinel;
    const url = new URL(options.url);
    const db = Number(url.pathname.slice(1) || 0);
    const client = new Redis({
      ...base,
      ...credentialsOf(url),
      db,
      sentinels,
      name,
      sentinelPassword: password,
      ...(usesTls(url) ? { enableTLSForSentinelMode: true, tls: tlsOptions(options.tls) } : {}),
      ...(options.sentinel.tls ? { sentinelTLS: tlsOptions(options.tls) } : {}),
      sentinelRetryStrategy: reconnectDelayMs,
      failoverDetector: true,
    });
    return logOutagesOnce(client, `sentinel master ${name}` + role);
  }
  if (!options.cluster) {
    const url = new URL(options.url);
    const node = usesTls(url) ? { ...base, tls: tlsOptions(options.tls) } : base;
    return logOutagesOnce(new Redis(options.url, node), url.host + role);
  }
  const first = parseNodeUrls(options.url)[0];
  if (!first) throw new Error("REDIS_URL names no cluster node");
  const cluster = new Cluster(parseNodeList(options.url, 6379), {
    lazyConnect: true,
    enableOfflineQueue: true,
    enableAutoPipelining: options.autoPipelining,
    clusterRetryStrategy: reconnectDelayMs,
    // A moved slot or a failover is followed by refreshing the slot map, not by failing requests.
    slotsRefreshTimeout: Math.max(options.timeoutMs * 10, 1000),
    retryDelayOnFailover: 50,
    retryDelayOnClusterDown: 50,
    retryDelayOnTryAgain: 50,
    redisOptions: { ...base, ...credentialsOf(first), ...(usesTls(first) ? { tls: tlsOptions(options.tls) } : {}) },
  });
  return logOutagesOnce(logNodeOutagesOnce(dropQueuedCommandsWhenDown(cluster)), "cluster" + role);
}
