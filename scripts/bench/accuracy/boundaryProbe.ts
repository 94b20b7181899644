/**
 * The boundary burst: one fresh client sends 3 x limit requests, one per millisecond, centred on
 * a window boundary (all within one window length). Admitted / limit is the factor by which an
 * algorithm lets a client exceed its limit across a boundary: 2.0 for fixed_window (a full window
 * just before the boundary and another just after), 1.0 for the others.
 */
import type { Limiter } from "../../../lib/limiter/decide";
import type { LimiterRule } from "../../../lib/limiter/types";

export async function boundaryBurstFactor(
  limiter: Limiter,
  tenantId: string,
  rule: LimiterRule,
  afterMs: number,
): Promise<number> {
  const boundary = (Math.ceil(afterMs / rule.windowMs) + 2) * rule.windowMs;
  const first = boundary - Math.floor((3 * rule.limit) / 2);
  const subject = { tenantId, keyId: `boundary-${rule.ref}` };
  let admitted = 0;
  for (let k = 0; k < 3 * rule.limit; k++) {
    const decision = await limiter.decide([rule], subject, { nowMs: first + k });
    if (decision.results[0]?.source !== "redis")
      throw new Error(`boundary probe: answered by ${decision.results[0]?.source}, not Redis`);
    if (decision.allowed) admitted++;
  }
  return admitted / rule.limit;
}
