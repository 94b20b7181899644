/**
 * The rate-limit headers Sluice sends (draft-ietf-httpapi-ratelimit-headers-10 as structured
 * fields, plus the X-RateLimit-* trio and Retry-After), parsed into numbers. Parsing never throws:
 * a missing or malformed header is simply absent from the result (a response no rule applied to
 * carries none).
 */
import { parseList, type Item } from "structured-headers";

export interface PolicyInfo {
  /** The rule's name. */
  name: string;
  /** Units per window (`q`). */
  quota?: number;
  /** Window in seconds (`w`). */
  windowSeconds?: number;
}

export interface RemainingInfo {
  name: string;
  /** Units left (`r`). */
  remaining?: number;
  /** Seconds until more quota is available (`t`). */
  resetSeconds?: number;
}

export interface RateLimitInfo {
  /** `RateLimit-Policy`: every rule applied to the request. */
  policies: PolicyInfo[];
  /** `RateLimit`: every applied enforce rule, most restrictive first. */
  remaining: RemainingInfo[];
  /** X-RateLimit-Limit / -Remaining / -Reset (epoch seconds) of the most restrictive rule. */
  limit?: number;
  remainingUnits?: number;
  resetAtEpochSeconds?: number;
  /** `Retry-After` in milliseconds (429 and 503 answers). */
  retryAfterMs?: number;
}

function items(value: string | null): Item[] {
  if (!value) return [];
  try {
    // An inner list has no place in these fields: skip it.
    return parseList(value).filter((member): member is Item => !Array.isArray(member[0]));
  } catch {
    return [];
  }
}

const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;
const int = (value: string | null): number | undefined =>
  value !== null && /^\d+$/.test(value.trim()) ? Number(value.trim()) : undefined;
const nameOf = (item: Item): string => String(item[0]);

/** `Retry-After` as milliseconds: delta-seconds, or an HTTP date relative to `nowMs`. */
export function retryAfterMs(value: string | null, nowMs: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const seconds = int(value);
  if (seconds !== undefined) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export function parseRateLimitHeaders(headers: Headers, nowMs: number = Date.now()): RateLimitInfo {
  return {
    policies: items(headers.get("ratelimit-policy")).map((item) => ({
      name: nameOf(item),
      quota: num(item[1].get("q")),
      windowSeconds: num(item[1].get("w")),
    })),
    remaining: items(headers.get("ratelimit")).map((item) => ({
      name: nameOf(item),
      remaining: num(item[1].get("r")),
      resetSeconds: num(item[1].get("t")),
    })),
    limit: int(headers.get("x-ratelimit-limit")),
    remainingUnits: int(headers.get("x-ratelimit-remaining")),
    resetAtEpochSeconds: int(headers.get("x-ratelimit-reset")),
    retryAfterMs: retryAfterMs(headers.get("retry-after"), nowMs),
  };
}
