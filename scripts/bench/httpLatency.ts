/**
 * Sub-millisecond p50/p99 for an autocannon run. autocannon times each request with
 * process.hrtime (a fractional ms, emitted with every `response` event) but records it in an HDR
 * histogram of whole milliseconds that truncates it (1.9 ms counts as 1 ms), so its percentiles
 * are integers and a p50 of "1" means anything from 1.0 to 1.999 ms. `LatencySamples` keeps the
 * same emitted times unrounded and applies autocannon's own rules to them, so what is measured is
 * unchanged, only its resolution:
 * - only 2xx answers are recorded (autocannon's default, `includeErrorStats` off);
 * - the percentile is HDR's: the value at rank max(1, round(p × n)) of the sorted samples.
 * For closed-loop runs only: autocannon's fixed-rate mode (`overallRate`) adds a coordinated-omission
 * correction not applied here (the data plane's half-load rows use dataplane/fixedRate.ts instead).
 */

export class LatencySamples {
  private values = new Float64Array(1 << 16);
  private count = 0;

  /** One response as autocannon's `response` event gives it: status code and time in ms. */
  record(statusCode: number, ms: number): void {
    if (statusCode < 200 || statusCode > 299) return;
    this.push(ms);
  }

  get size(): number {
    return this.count;
  }

  /** The value at percentile `p` (0 to 1), HDR's rank; NaN with no sample. */
  percentile(p: number): number {
    if (this.count === 0) return Number.NaN;
    const sorted = this.values.slice(0, this.count).sort();
    return sorted[rankIndex(p, this.count)]!;
  }

  /** p50 and p99 in ms, to the µs. */
  summary(): { p50Ms: number; p99Ms: number } {
    if (this.count === 0) return { p50Ms: Number.NaN, p99Ms: Number.NaN };
    const sorted = this.values.slice(0, this.count).sort();
    const at = (p: number) => Math.round(sorted[rankIndex(p, this.count)]! * 1000) / 1000;
    return { p50Ms: at(0.5), p99Ms: at(0.99) };
  }

  private push(ms: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.count++] = ms;
  }
}

/** HDR's getValueAtPercentile rank (1-based count max(1, floor(p × n + 0.5))), as a 0-based index. */
function rankIndex(p: number, n: number): number {
  return Math.min(n, Math.max(1, Math.floor(Math.min(p, 1) * n + 0.5))) - 1;
}
