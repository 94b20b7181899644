/**
 * Wrong bearer tokens per client address: after `limit` wrong tokens (admin API, metrics) within
 * WINDOW_MS, that address is answered 429 (`rate_limited`, Retry-After) before any token it sends
 * is compared, the right one included, until its failures age out. Counted in this instance's
 * memory by the sliding_window reference model (lib/limiter/localLimiter.ts, bounded): no Redis
 * round trip on the admin path and no outage that could switch it off; across N instances an
 * address gets up to N x limit tries. Tokens are long (lib/config/adminToken.js), so this bounds noise
 * and abuse rather than being the only thing between a guesser and the token.
 *
 * Shared by every route of the process through globalThis (Next bundles each route apart).
 */
import { config } from "../../config/config";
import { AppError } from "../../http/errors";
import { retryAfterSeconds } from "../../limiter/headers";
import { LocalLimiter } from "../../limiter/localLimiter";
import type { LimiterRule } from "../../limiter/types";

export const BEARER_FAILURE_WINDOW_MS = 10 * 60_000;
const MAX_ADDRESSES = 50_000;

export class BearerFailures {
  private readonly counts = new LocalLimiter(MAX_ADDRESSES);
  private readonly rule: LimiterRule;

  constructor(
    limit: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.rule = {
      name: "bearer-failures",
      ref: "bearer",
      scope: "ip",
      algorithm: "sliding_window",
      limit,
      windowMs: BEARER_FAILURE_WINDOW_MS,
      burst: limit,
      cost: 1,
      blockMs: 0,
      failMode: "local",
      mode: "enforce",
    };
  }

  /** Throws `rate_limited` (429) once `ip` has used up its wrong tokens. Charges nothing. */
  assertMayTry(ip: string): void {
    const [result] = this.counts.decide([{ rule: this.rule, key: ip }], this.clock(), false);
    if (result && !result.allowed) {
      const seconds = retryAfterSeconds(result.retryAfterMs);
      throw new AppError("rate_limited", `Too many wrong bearer tokens from this address. Try again in ${seconds} s.`, {
        headers: { "Retry-After": String(seconds) },
      });
    }
  }

  recordFailure(ip: string): void {
    this.counts.decide([{ rule: this.rule, key: ip }], this.clock(), true);
  }
}

const shared = globalThis as typeof globalThis & { __sluiceBearerFailures?: BearerFailures };

/** This process's counter (SLUICE_BEARER_FAILURES_PER_IP per 10 minutes). */
export function bearerFailures(): BearerFailures {
  shared.__sluiceBearerFailures ??= new BearerFailures(config().bearerFailuresPerIp);
  return shared.__sluiceBearerFailures;
}
