/**
 * Batches decisions into script calls. A request submitted while no call is in flight and none is
 * queued goes out at once (a client making one call at a time pays no batching wait). Otherwise,
 * requests submitted in the same event-loop turn for the same group (the tenant's hash-tag slot on a Cluster; one group on a single node) are sent to
 * decide.lua as ONE call, which evaluates them one after another: each request is still atomic and
 * all-or-nothing, and a later request sees what an earlier one consumed. This amortises the
 * per-command cost (a socket write, ioredis bookkeeping, a deadline timer, the script call
 * overhead) over the batch, which is where the time of a Lua limiter goes at high concurrency.
 *
 * Failure: the whole batch shares one deadline (`withDeadline`); if it fails, every request in it
 * rejects with `LimiterUnavailableError` and each applies its own rules' fail modes.
 */
import type { RedisClient } from "../redis/connect";
import { withDeadline } from "../redis/deadline";
import { runDecideScript, type DecideArgv } from "./decideScript";
import { parseDecideReply, type ParsedReply } from "./parseDecideReply";
import type { RuleSpec } from "./ruleSpec";
import { LimiterUnavailableError } from "./types";

/** One request's part of a call: its counter keys and its ARGV argument (see decide.lua). */
export interface BatchedRequest {
  /** One per rule (rules of one subject share a key); the call sends each distinct key once. */
  keys: string[];
  /** "" for Redis TIME, else epoch ms. */
  now: string;
  commit: boolean;
  /** With `commit`: commit only if the request before it in the call committed (submitChained). */
  afterPrevious?: boolean;
  /** The member a concurrency rule adds when the request commits (decide.lua); "" or absent: none. */
  lease?: string;
  /** Real-time floor of the TTLs written (ms); 0 unless the time is explicit (see decide.lua). */
  ttlFloorMs: number;
  /** One per key, in the same order. */
  specs: readonly RuleSpec[];
  /**
   * Per rule, its second key or "" (absent: none): for a sliding_log rule with a penalty, the
   * subject key holding the penalty (see decide.lua).
   */
  penaltyKeys?: string[];
}

interface Pending {
  request: BatchedRequest;
  resolve: (reply: ParsedReply) => void;
  reject: (error: unknown) => void;
}

/** Requests per call: large enough to amortise, small enough to keep Redis's latency for others low. */
export const MAX_BATCH = 64;

export class DecideBatcher {
  private readonly queues = new Map<string, Pending[]>();
  private scheduled = false;
  /** Script calls sent and not yet answered. */
  private inFlight = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly timeoutMs: number,
    private readonly maxBatch = MAX_BATCH,
  ) {}

  submit(group: string, request: BatchedRequest): Promise<ParsedReply> {
    return new Promise((resolve, reject) => {
      this.enqueue(group, [{ request, resolve, reject }]);
    });
  }

  /**
   * Two requests sent next to each other in one call, `second` committing only if `first` did
   * (decide.lua commit "2"): two decisions, one round trip.
   */
  submitChained(group: string, first: BatchedRequest, second: BatchedRequest): Promise<[ParsedReply, ParsedReply]> {
    return new Promise((resolve, reject) => {
      // Resolved in call order: the first reply is there when the second arrives (a failure of either rejects).
      let firstReply: ParsedReply;
      this.enqueue(group, [
        { request: first, resolve: (reply) => (firstReply = reply), reject },
        { request: { ...second, afterPrevious: true }, resolve: (reply) => resolve([firstReply, reply]), reject },
      ]);
    });
  }

  private enqueue(group: string, pendings: Pending[]): void {
    if (this.inFlight === 0 && !this.scheduled) {
      // Nothing else under way (so nothing is queued either): waiting for company would only add
      // latency, and the queue map is not touched.
      void this.send(pendings);
      return;
    }
    let queue = this.queues.get(group);
    if (!queue) {
      queue = [];
      this.queues.set(group, queue);
    }
    queue.push(...pendings);
    if (queue.length >= this.maxBatch) {
      this.queues.delete(group);
      void this.send(queue);
    } else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.scheduled = false;
    const batches = [...this.queues.values()];
    this.queues.clear();
    for (const batch of batches) void this.send(batch);
  }

  private async send(batch: Pending[]): Promise<void> {
    // ARGV: the call's distinct rule specs once (each one packed argument, its id), then one packed
    // argument per request naming its specs and keys by number; KEYS: the call's distinct keys once.
    // An argument costs ioredis and Redis per call, so a request is one, not 5 + 3 per rule.
    // A lone request (the sequential case) has a few keys and specs: a scan of them costs less
    // than building two maps.
    const lone = batch.length === 1;
    const keys: string[] = [];
    const keyNumbers = lone ? undefined : new Map<string, number>();
    const specArgs: string[] = [];
    const requestArgs: string[] = [];
    const specNumbers = lone ? undefined : new Map<string, number>();
    for (const { request } of batch) {
      let packed =
        request.now +
        (request.commit ? (request.afterPrevious ? ",2," : ",1,") : ",0,") +
        (request.lease ?? "") +
        "," +
        request.ttlFloorMs +
        "," +
        request.keys.length;
      for (let i = 0; i < request.keys.length; i++) {
        const second = request.penaltyKeys?.[i];
        const spec = request.specs[i]!;
        let number = specNumbers ? specNumbers.get(spec.id) : specArgs.indexOf(spec.id) + 1 || undefined;
        if (number === undefined) {
          specArgs.push(spec.id);
          number = specArgs.length;
          specNumbers?.set(spec.id, number);
        }
        packed +=
          "," +
          number +
          "," +
          numberOf(request.keys[i]!, keys, keyNumbers) +
          "," +
          (second ? numberOf(second, keys, keyNumbers) : 0);
      }
      requestArgs.push(packed);
    }
    const argv: DecideArgv = [keys.length, ...keys, specArgs.length, ...specArgs, batch.length, ...requestArgs];
    let reply: unknown;
    this.inFlight++;
    try {
      reply = await withDeadline(this.redis, () => runDecideScript(this.redis, argv), this.timeoutMs);
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    } finally {
      this.inFlight--;
    }
    if (!Array.isArray(reply)) {
      const error = new LimiterUnavailableError(`decide reply: expected an array, got ${typeof reply}`);
      for (const pending of batch) pending.reject(error);
      return;
    }
    let offset = 0;
    for (const pending of batch) {
      const size = 2 + 5 * pending.request.keys.length;
      try {
        pending.resolve(
          parseDecideReply(lone ? reply : reply.slice(offset, offset + size), pending.request.keys.length),
        );
      } catch (error) {
        pending.reject(new LimiterUnavailableError((error as Error).message, { cause: error }));
      }
      offset += size;
    }
  }
}

/** `key`'s number (1-based) among the call's keys, added when new: by a scan for a lone request, else by `numbers`. */
function numberOf(key: string, keys: string[], numbers: Map<string, number> | undefined): number {
  if (!numbers) {
    const at = keys.indexOf(key);
    if (at >= 0) return at + 1;
    keys.push(key);
    return keys.length;
  }
  let number = numbers.get(key);
  if (number === undefined) {
    keys.push(key);
    number = keys.length;
    numbers.set(key, number);
  }
  return number;
}
