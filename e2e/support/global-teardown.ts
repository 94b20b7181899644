/** Deletes the Redis keys of this end-to-end run (its own prefix; never a FLUSH: Redis is shared). */
import { deleteByPrefix, plainRedis } from "../../test/support/testRedis";
import { OWN_PREFIX, REDIS_PREFIX } from "./testEnv";

export default async function globalTeardown(): Promise<void> {
  if (!OWN_PREFIX) return;
  const redis = plainRedis();
  try {
    await deleteByPrefix(redis, REDIS_PREFIX);
  } finally {
    redis.disconnect();
  }
}
