/**
 * Records decisions for the monitoring data without any I/O on the request path.
 *
 * Contract
 * - `recordRequest` / `recordCheck` only update the in-memory batch (lib/monitoring/record/decisionBatch.ts);
 *   they never throw and never wait. Time is the recorder's clock unless `nowMs` is passed.
 * - `flush()` swaps the batch for an empty one and writes it with one MULTI/EXEC transaction per
 *   Redis node group (lib/monitoring/record/monitoringPipeline.ts), all or nothing, then the request trace in
 *   script calls of TRACE_CHUNK entries, one after the other (lib/monitoring/record/flushCommands.ts
 *   traceChunks; a failure drops the chunks not yet written); `start()` runs it every
 *   `flushIntervalMs` (1 s) on an unref'd timer, so requests never await it. Each instance writes
 *   only its own increments, so several instances add up correctly.
 * - A failed flush drops its batch (never retried, so nothing is counted twice) and is logged once
 *   per outage, with one more line when writes succeed again. While a flush is in flight the next
 *   tick is skipped and the batch keeps filling, within its bounds: memory never grows without bound.
 * - `drain()` waits for a flush in flight and flushes what is pending; `stop()` also clears the timer.
 * What the flush writes, and for how long it is kept: lib/monitoring/record/monitoringKeys.ts.
 */
import type { Decision } from "../../limiter/types";
import type { RedisClient } from "../../redis/connect";
import { DecisionBatch, DEFAULT_BATCH_LIMITS, type BatchLimits, type RecordedRequest } from "./decisionBatch";
import { withDeadline } from "../../redis/deadline";
import { flushCommands, traceChunks } from "./flushCommands";
import { runPipelines } from "./monitoringPipeline";
import { appendTrace } from "./traceAppendScript";

/** What the enforcement path sees of the recorder. */
export interface DecisionSink {
  /** A request under /api/v1: `decision` null when no rule matched; `keyId` undefined when unauthenticated. */
  recordRequest(request: RecordedRequest, nowMs?: number): void;
  /**
   * A decision of POST /api/v1/check (its rule only; the request itself is recorded by recordRequest),
   * or of a ShouldRateLimit call (its rules, `attributes` the call's descriptor subjects).
   */
  recordCheck(
    tenantId: string,
    decision: Decision,
    nowMs?: number,
    identifier?: string,
    attributes?: Readonly<Record<string, string>>,
  ): void;
  /** A gateway answer: the status the client got for the tenant's upstream, and the time to it (ms). */
  recordUpstream?(tenantId: string, status: number, latencyMs: number, nowMs?: number): void;
}

export type { RecordedRequest };

export type FlushOutcome = "written" | "empty" | "busy" | "failed";

export interface RecorderOptions {
  redis: RedisClient;
  prefix: string;
  clock?: () => number;
  flushIntervalMs?: number;
  /** Longest a flush may take before it counts as failed. */
  timeoutMs?: number;
  limits?: BatchLimits;
  /** Requests kept per tenant in the simulator's trace (SLUICE_SIM_MAX_REQUESTS). */
  traceMaxLen?: number;
  log?: (message: string) => void;
  /** Told after each flush that wrote or dropped a batch (metrics); `overflow`: observations the batch could not keep. Must not throw. */
  onFlush?: (outcome: FlushOutcome, overflow: number) => void;
}

export const FLUSH_INTERVAL_MS = 1_000;
export const FLUSH_TIMEOUT_MS = 2_000;

export class DecisionRecorder implements DecisionSink {
  private batch: DecisionBatch;
  private inFlight: Promise<FlushOutcome> | null = null;
  private failing = false;
  private droppedBatches = 0;
  private recordFailed = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly clock: () => number;
  private readonly log: (message: string) => void;

  constructor(private readonly options: RecorderOptions) {
    this.clock = options.clock ?? Date.now;
    this.log = options.log ?? ((message) => console.warn(`[sluice] ${message}`));
    this.batch = this.newBatch();
  }

  recordRequest(request: RecordedRequest, nowMs = this.clock()): void {
    this.guard(() => this.batch.addRequest(request, nowMs));
  }

  recordCheck(
    tenantId: string,
    decision: Decision,
    nowMs = this.clock(),
    identifier?: string,
    attributes?: Readonly<Record<string, string>>,
  ): void {
    this.guard(() => this.batch.addCheck(tenantId, decision, nowMs, identifier, attributes));
  }

  recordUpstream(tenantId: string, status: number, latencyMs: number, nowMs = this.clock()): void {
    this.guard(() => this.batch.addUpstream(tenantId, status, latencyMs, nowMs));
  }

  /** Entries waiting for the next flush (cells, clients and near-limit marks). */
  pendingSize(): number {
    return this.batch.size;
  }

  async flush(): Promise<FlushOutcome> {
    if (this.inFlight) return "busy";
    const batch = this.batch;
    if (batch.size === 0) return "empty";
    this.batch = this.newBatch();
    this.inFlight = this.write(batch);
    try {
      return await this.inFlight;
    } finally {
      this.inFlight = null;
    }
  }

  private async write(batch: DecisionBatch): Promise<FlushOutcome> {
    let outcome: FlushOutcome = "failed";
    try {
      // Atomic: a flush cut off half-way (instance killed, connection lost) must not leave a key
      // written without its PEXPIRE.
      const timeoutMs = this.options.timeoutMs ?? FLUSH_TIMEOUT_MS;
      await runPipelines(this.options.redis, flushCommands(batch, this.options.prefix, this.clock()), timeoutMs, {
        atomic: true,
      });
      // The trace apart, chunk after chunk: see traceChunks.
      for (const chunk of traceChunks(batch.trace, this.options.prefix, this.options.traceMaxLen))
        await withDeadline(this.options.redis, () => appendTrace(this.options.redis, chunk), timeoutMs);
      outcome = "written";
      if (this.failing)
        this.log(`monitoring data is written again (${this.droppedBatches} batch(es) dropped during the outage)`);
      this.failing = false;
      this.droppedBatches = 0;
    } catch (error) {
      this.droppedBatches++;
      if (!this.failing)
        this.log(`monitoring data could not be written, dropping it until Redis answers: ${(error as Error).message}`);
      this.failing = true;
    }
    try {
      this.options.onFlush?.(outcome, batch.overflow);
    } catch {
      // A metrics callback must not turn a flush into an unhandled rejection of the timer.
    }
    return outcome;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.options.flushIntervalMs ?? FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** Waits for a flush in flight, then writes what is pending (tests, and `stop`). */
  async drain(): Promise<FlushOutcome> {
    while (this.inFlight) await this.inFlight;
    return this.flush();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.drain();
  }

  private newBatch(): DecisionBatch {
    return new DecisionBatch(this.options.limits ?? DEFAULT_BATCH_LIMITS);
  }

  /** Recording must never break a request: an unexpected error is logged once and the observation lost. */
  private guard(record: () => void): void {
    try {
      record();
    } catch (error) {
      if (!this.recordFailed) this.log(`a decision could not be recorded for monitoring: ${(error as Error).message}`);
      this.recordFailed = true;
    }
  }
}
