/**
 * What every dashboard query reads with: the Redis client, the key prefix, the deadline and the
 * directory of names. Its own file so the *Query.ts files and monitoringQueries.ts, which binds
 * them, do not import each other.
 */
import type { RedisClient } from "../../redis/connect";
import type { MonitoringDirectory } from "./monitoringDirectory";

export interface MonitoringReadDeps {
  redis: RedisClient;
  prefix: string;
  timeoutMs: number;
  directory: MonitoringDirectory;
}
