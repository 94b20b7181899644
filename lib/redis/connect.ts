/**
 * Builds ioredis clients (single node or Cluster) with Sluice's failure behaviour:
 * - lazy: nothing connects until the first command (so `next build` never touches Redis);
 * - fail fast: a command is rejected after `timeoutMs` (ioredis `commandTimeout`), is never retried,
 *   and while the connection is down commands are rejected instead of piling up in an offline queue;
 * - reconnects in the background with a capped backoff, so service resumes as soon as Redis answers;
 * - named: `name` (e.g. "limiter") labels its outage log lines and is its CLIENT SETNAME
 *   (`sluice-<name>`), so an operator reading CLIENT LIST sees which part holds which connection.
 */
import { Cluster, Redis, type ClusterNode, type RedisOptions } from "ioredis";

export type RedisClient = Redis | Cluster;

export interface ConnectOptions {
  url: string;
  cluster: boolean;
  timeoutMs: number;
  autoPipelining: boolean;
  /** What the connection is for: "limiter", "monitoring"... */
  name?: string;
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

function nodeOptions(options: ConnectOptions): RedisOptions {
  return {
    lazyConnect: true,
    commandTimeout: options.timeoutMs,
    connectTimeout: Math.max(options.timeoutMs * 10, 1000),
    maxRetriesPerRequest: 0,
    // Commands queue only while a connection is being made (the first, lazy one, or a reconnect
    // attempt), each under its caller's deadline; a failed attempt rejects them (no retries), and
    // between attempts `withDeadline` (deadline.ts) rejects at once.
    enableOfflineQueue: true,
    retryStrategy: reconnectDelayMs,
    enableAutoPipelining: options.autoPipelining,
    connectionName: options.name ? `sluice-${options.name}` : undefined,
  };
}

/** Parses `redis://h:p,redis://h2:p2` or `h:p,h2:p2` into URLs (credentials are read from the first). */
export function parseClusterUrls(url: string): URL[] {
  return url
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => new URL(part.includes("://") ? part : `redis://${part}`));
}

export function parseClusterNodes(url: string): ClusterNode[] {
  return parseClusterUrls(url).map((node) => ({ host: node.hostname, port: Number(node.port || 6379) }));
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
    console.warn(`[sluice] redis ${label} unavailable: ${error.message}`);
  });
  client.on("ready", () => {
    if (!down) return;
    down = false;
    console.warn(`[sluice] redis ${label} is back`);
  });
  return client;
}

export function createRedisClient(options: ConnectOptions): RedisClient {
  const base = nodeOptions(options);
  const role = options.name ? ` (${options.name})` : "";
  if (!options.cluster) {
    return logOutagesOnce(new Redis(options.url, base), new URL(options.url).host + role);
  }
  const urls = parseClusterUrls(options.url);
  const first = urls[0];
  if (!first) throw new Error("REDIS_URL names no cluster node");
  const cluster = new Cluster(parseClusterNodes(options.url), {
    lazyConnect: true,
    enableOfflineQueue: true,
    enableAutoPipelining: options.autoPipelining,
    clusterRetryStrategy: reconnectDelayMs,
    // A moved slot or a failover is followed by refreshing the slot map, not by failing requests.
    slotsRefreshTimeout: Math.max(options.timeoutMs * 10, 1000),
    retryDelayOnFailover: 50,
    retryDelayOnClusterDown: 50,
    retryDelayOnTryAgain: 50,
    redisOptions: {
      ...base,
      username: first.username || undefined,
      password: first.password ? decodeURIComponent(first.password) : undefined,
    },
  });
  return logOutagesOnce(cluster, "cluster" + role);
}
