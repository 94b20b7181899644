/**
 * The claim of a condition window and the log of finished deliveries, in Redis
 * (keys: lib/control/alerts/alertKeys.ts).
 *
 * - `claimWindow`: SET NX PX on the window's claim key: exactly one caller, across every instance
 *   sharing the Redis, gets true for one tenant, condition type, window length and window; the
 *   claim expires a minute after its window. Rejects when Redis fails (the caller then delivers
 *   nothing: at most once, never twice).
 * - `recordDelivery`: pushes one delivery at the head of the tenant's list, trims it to
 *   DELIVERIES_KEPT and renews its TTL, in one MULTI.
 * - `lastDeliveries`: newest first; entries that are not a delivery are skipped.
 */
import type { RedisClient } from "../../redis/connect";
import type { AlertConditionType } from "./alertSchema";
import type { AlertDelivery } from "./alertAnswers";
import { alertKeys, DELIVERIES_KEPT, DELIVERIES_TTL_MS } from "./alertKeys";

const MINUTE_MS = 60_000;

export async function claimWindow(
  redis: RedisClient,
  prefix: string,
  tenantId: string,
  type: AlertConditionType,
  minutes: number,
  window: number,
  owner: string,
): Promise<boolean> {
  const key = alertKeys(prefix, tenantId).claim(type, minutes, window);
  return (await redis.set(key, owner, "PX", minutes * MINUTE_MS + MINUTE_MS, "NX")) === "OK";
}

export async function recordDelivery(
  redis: RedisClient,
  prefix: string,
  tenantId: string,
  delivery: AlertDelivery,
): Promise<void> {
  const key = alertKeys(prefix, tenantId).deliveries();
  const replies = await redis
    .multi()
    .lpush(key, JSON.stringify(delivery))
    .ltrim(key, 0, DELIVERIES_KEPT - 1)
    .pexpire(key, DELIVERIES_TTL_MS)
    .exec();
  const failed = (replies ?? []).find(([error]) => error);
  if (!replies || failed) throw failed?.[0] ?? new Error("the delivery log transaction was discarded");
}

function isDelivery(value: unknown): value is AlertDelivery {
  const d = value as AlertDelivery;
  return (
    typeof d === "object" &&
    d !== null &&
    typeof d.id === "string" &&
    typeof d.firedAt === "string" &&
    (d.outcome === "delivered" || d.outcome === "failed") &&
    typeof d.attempts === "number"
  );
}

export async function lastDeliveries(redis: RedisClient, prefix: string, tenantId: string): Promise<AlertDelivery[]> {
  const entries = await redis.lrange(alertKeys(prefix, tenantId).deliveries(), 0, DELIVERIES_KEPT - 1);
  const out: AlertDelivery[] = [];
  for (const entry of entries) {
    try {
      const parsed: unknown = JSON.parse(entry);
      if (isDelivery(parsed)) out.push(parsed);
    } catch {
      // Not ours: skipped.
    }
  }
  return out;
}
