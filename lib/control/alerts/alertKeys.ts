/**
 * The Redis keys of in-product alerts, hash-tagged by tenant like every tenant key
 * (lib/limiter/keys.ts `tenantKeyPrefix`), after the tag starting with `a` (no limiter or
 * monitoring key does: those start with `2`, an algorithm char, or `m`; a test pins this):
 *
 * | key                                  | type   | content                                          | TTL                 |
 * | ------------------------------------ | ------ | ------------------------------------------------ | ------------------- |
 * | `{T}ac<type><minutes>:<window>`      | string | the claim of one condition window: who delivers | the window + 1 min  |
 * | `{T}ad`                              | list   | the last DELIVERIES_KEPT deliveries, JSON, newest first | DELIVERIES_TTL_MS after the last |
 *
 * `<type>` is `r` (refusal rate) or `l` (client limit), `<minutes>` the condition's window length
 * and `<window>` the epoch index of the window (epoch ms / window length), so a changed window
 * length never reuses another length's claim. Throws on a tenant id that cannot be a hash tag.
 */
import { tenantKeyPrefix } from "../../limiter/keys";
import type { AlertConditionType } from "./alertSchema";

export const DELIVERIES_KEPT = 20;
export const DELIVERIES_TTL_MS = 7 * 86_400_000;

const TYPE_CHAR: Record<AlertConditionType, string> = { refusal_rate: "r", client_limit: "l" };

export function alertKeys(prefix: string, tenantId: string) {
  const base = `${tenantKeyPrefix(prefix, tenantId)}a`;
  return {
    claim: (type: AlertConditionType, minutes: number, window: number) =>
      `${base}c${TYPE_CHAR[type]}${minutes}:${window}`,
    deliveries: () => `${base}d`,
  };
}
