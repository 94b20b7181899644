/**
 * Lists of Redis nodes in configuration: `redis://h:p,redis://h2:p2` or `h:p,h2:p2`, for Cluster
 * seeds (REDIS_URL) and Sentinels (SLUICE_REDIS_SENTINELS). Pure: no I/O, no ioredis, so the
 * configuration can check them at start-up.
 */
export interface NodeAddress {
  host: string;
  port: number;
}

/** Each entry as a URL (credentials, if any, are read by the caller from the first). Throws on a malformed entry. */
export function parseNodeUrls(list: string): URL[] {
  return list
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      let url: URL;
      try {
        url = new URL(part.includes("://") ? part : `redis://${part}`);
      } catch {
        throw new Error(`"${part}" is not host:port`);
      }
      if (url.hostname === "") throw new Error(`"${part}" names no host`);
      return url;
    });
}

/** Host and port of each entry; `defaultPort` where an entry names none (6379 for Redis, 26379 for Sentinel). */
export function parseNodeList(list: string, defaultPort: number): NodeAddress[] {
  return parseNodeUrls(list).map((node) => ({ host: node.hostname, port: Number(node.port || defaultPort) }));
}
