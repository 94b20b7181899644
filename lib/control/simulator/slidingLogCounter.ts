/**
 * One sliding_log counter for a replay, kept incrementally: the same verdicts as the reference
 * model (lib/limiter/algorithms/slidingLog.ts) and its Lua twin, in O(1) amortised time per
 * request instead of O(entries in the window) (the model filters and copies the whole log on every
 * call, which over a long replay of a large limit is quadratic).
 *
 * - Evaluation counts the entries newer than `now - window` (Lua: ZRANGE `(now-window` .. +inf).
 * - Commit drops the entries at or before `now - window` (Lua: ZREMRANGEBYSCORE -inf now-window)
 *   and appends the request: entries leave the log only when a request is admitted, as in Redis,
 *   so two rules of different windows sharing a counter still see what Redis would show them.
 * - Precondition: time never goes back (the replay decides requests sorted by time). The entries
 *   are then in time order and the ones outside the window are a prefix of the log.
 */
export class SlidingLogCounter {
  private readonly times: number[] = [];
  private readonly costs: number[] = [];
  /** Entries before `head` are gone (dropped by a commit). */
  private head = 0;
  /** Cost of the entries from `head` on. */
  private total = 0;
  /** Entries in [head, scan) are outside the window last evaluated; `scanCost` is their cost. */
  private scan = 0;
  private scanCost = 0;
  private scanNow = -Infinity;
  private scanWindow = Number.NaN;

  /** Units used inside the window that ends at `now`. */
  private used(now: number, windowMs: number): number {
    if (windowMs !== this.scanWindow || now < this.scanNow) {
      this.scan = this.head;
      this.scanCost = 0;
      this.scanWindow = windowMs;
    }
    this.scanNow = now;
    const edge = now - windowMs;
    while (this.scan < this.times.length && this.times[this.scan]! <= edge) {
      this.scanCost += this.costs[this.scan]!;
      this.scan++;
    }
    return this.total - this.scanCost;
  }

  /** Whether a request of `cost` at `now` passes a log of `limit` per `windowMs`. Changes nothing. */
  admits(now: number, limit: number, windowMs: number, cost: number): boolean {
    return this.used(now, windowMs) + cost <= limit;
  }

  /** Consumes the request (nothing for cost 0, like the model and the Lua). */
  commit(now: number, windowMs: number, cost: number): void {
    if (cost <= 0) return;
    this.used(now, windowMs);
    this.head = this.scan;
    this.total -= this.scanCost;
    this.scanCost = 0;
    this.times.push(now);
    this.costs.push(cost);
    this.total += cost;
    if (this.head > 4_096 && this.head * 2 > this.times.length) {
      this.times.splice(0, this.head);
      this.costs.splice(0, this.head);
      this.scan -= this.head;
      this.head = 0;
    }
  }
}
