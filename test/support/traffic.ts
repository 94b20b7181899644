/**
 * Continuous traffic for fault tests: `startTraffic(next, options)` keeps `concurrency` loops
 * sending one request after another (each asks `next(i)` where to send request number i) until
 * `stop()`, and records every answer as a `Sample`: when it was sent and answered (performance.now()
 * ms), how long it took, its status, rate-limit headers and body. A request that gets no answer
 * within `requestTimeoutMs` (a hang) or fails at the socket is recorded with `status: 0` and the
 * error, never thrown, so the test sees everything that happened during the fault.
 */
import { apiCall } from "./adminClient";
import { sleep } from "./sluiceEnv";

export interface Target {
  baseUrl: string;
  path: string;
  key: string;
  /** Free label copied into the sample (e.g. the fail mode the path exercises). */
  label?: string;
}

export interface Sample {
  label: string;
  path: string;
  key: string;
  baseUrl: string;
  sentAt: number;
  answeredAt: number;
  ms: number;
  /** 0 when no HTTP answer came (socket error or no answer within requestTimeoutMs). */
  status: number;
  contentType: string | null;
  remaining: string | null;
  policy: string | null;
  retryAfter: string | null;
  body: unknown;
  error?: string;
}

export interface TrafficOptions {
  concurrency?: number;
  /** Pause between two requests of one loop (keeps the 2-core machine usable). */
  pauseMs?: number;
  requestTimeoutMs?: number;
}

export interface Traffic {
  /** Everything recorded so far (a live array). */
  readonly samples: Sample[];
  /** Samples sent at or after `since` (performance.now() ms). */
  since(since: number): Sample[];
  stop(): Promise<Sample[]>;
}

export function startTraffic(next: (i: number) => Target, options: TrafficOptions = {}): Traffic {
  const { concurrency = 2, pauseMs = 10, requestTimeoutMs = 10_000 } = options;
  const samples: Sample[] = [];
  let running = true;
  let counter = 0;
  const loop = async () => {
    while (running) {
      const target = next(counter++);
      const sentAt = performance.now();
      const base = { label: target.label ?? "", path: target.path, key: target.key, baseUrl: target.baseUrl, sentAt };
      try {
        const res = await apiCall(target.baseUrl, target.path, {
          key: target.key,
          signal: AbortSignal.timeout(requestTimeoutMs),
        });
        const answeredAt = performance.now();
        samples.push({
          ...base,
          answeredAt,
          ms: answeredAt - sentAt,
          status: res.status,
          contentType: res.headers.get("content-type"),
          remaining: res.headers.get("x-ratelimit-remaining"),
          policy: res.headers.get("ratelimit-policy"),
          retryAfter: res.headers.get("retry-after"),
          body: res.body,
        });
      } catch (error) {
        const answeredAt = performance.now();
        samples.push({
          ...base,
          answeredAt,
          ms: answeredAt - sentAt,
          status: 0,
          contentType: null,
          remaining: null,
          policy: null,
          retryAfter: null,
          body: null,
          error: (error as Error).message,
        });
      }
      if (pauseMs > 0) await sleep(pauseMs);
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    samples,
    since: (since) => samples.filter((s) => s.sentAt >= since),
    async stop() {
      running = false;
      await Promise.all(loops);
      return samples;
    },
  };
}

/** Counts of `key(sample)` values, for readable assertion failures (e.g. { "closed 503": 12 }). */
export function tally(
  samples: Sample[],
  key: (s: Sample) => string = (s) => `${s.label} ${s.status}`,
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of samples) {
    const k = key(s);
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}
