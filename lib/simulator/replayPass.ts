/**
 * Replays recorded requests through the limiter (the same lua/decide.lua as live enforcement) with
 * explicit time: each request is decided at its recorded time, against the rules that would apply
 * to it (enforcement's own matching, lib/enforce/effectiveRules.ts), for its recorded subject.
 *
 * - `limiter` must be made for this replay alone: its prefix is the run's isolated key space
 *   (lib/simulator/simulationKeySpace.ts), so no live counter is read or written.
 * - Order: requests are submitted in time order and the limiter's batcher sends them in that order
 *   on one connection (one per Cluster slot; all of a tenant's keys share one), so every subject's
 *   requests are evaluated in order, with up to MAX_IN_FLIGHT requests in flight (no barrier:
 *   a new chunk is sent as soon as the oldest of those in flight is answered).
 * - Every counter key the replay may write is reported through `onKey`, for deletion at the end:
 *   each rule of each distinct (key, IP) subject once, matched by a request or not (a superset;
 *   deleting a key that was never written is harmless), which costs nothing per request.
 * - A fail-mode answer (Redis down or slower than the limiter's timeout) is no simulation: it
 *   rejects with LimiterUnavailableError instead of being counted as a decision.
 * Returns one byte per request: 1 when refused, 0 when admitted (also when no rule applied).
 */
import { rulesForRequest, type CompiledRule } from "../enforce/effectiveRules";
import type { Limiter } from "../limiter/decide";
import { counterKey } from "../limiter/keys";
import { LimiterUnavailableError, type Decision, type Subject } from "../limiter/types";
import type { TraceEntry } from "../metrics/requestTrace";

/** Requests submitted together, and at most in flight: enough to keep Redis busy with full script calls. */
const CHUNK = 1_024;
const MAX_IN_FLIGHT = 8 * CHUNK;

export interface ReplayPass {
  limiter: Limiter;
  /** The prefix the limiter was made with (to name the keys it writes). */
  prefix: string;
  tenantId: string;
  /** The rule set a request of this key (null: no key) is checked against. */
  rulesOf(keyId: string | null): CompiledRule[];
  onKey(key: string): void;
}

function refusedFlag(decision: Decision): number {
  for (const r of decision.results) {
    if (r.source !== "redis") throw new LimiterUnavailableError(`the simulation needs Redis answers, got ${r.source}`);
  }
  return decision.allowed ? 0 : 1;
}

export async function replayPass(entries: readonly TraceEntry[], pass: ReplayPass): Promise<Uint8Array> {
  const refused = new Uint8Array(entries.length);
  const subjects = new Map<string, Subject>();
  const chunks: Promise<unknown>[] = [];
  try {
    for (let from = 0; from < entries.length; from += CHUNK) {
      const inFlight: Promise<void>[] = [];
      const to = Math.min(entries.length, from + CHUNK);
      for (let i = from; i < to; i++) {
        const entry = entries[i]!;
        const rules = rulesForRequest(pass.rulesOf(entry.keyId), entry.method, entry.path);
        if (rules.length === 0) continue;
        const ip = entry.ip ?? "unknown";
        const id = `${entry.keyId ?? ""} ${ip}`;
        let subject = subjects.get(id);
        if (!subject) subjects.set(id, (subject = { tenantId: pass.tenantId, keyId: entry.keyId ?? undefined, ip }));
        inFlight.push(
          pass.limiter.decide(rules, subject, { nowMs: entry.atMs }).then((decision) => {
            refused[i] = refusedFlag(decision);
          }),
        );
      }
      chunks.push(Promise.all(inFlight));
      if (chunks.length * CHUNK >= MAX_IN_FLIGHT) await chunks.shift();
    }
    await Promise.all(chunks);
  } finally {
    // Reported even on error: whatever was written before it must still be deleted.
    for (const subject of subjects.values()) {
      const keyId = subject.keyId ?? null;
      for (const compiled of pass.rulesOf(keyId)) {
        if (compiled.rule.scope === "identifier" || (compiled.rule.scope === "key" && keyId === null)) continue;
        pass.onKey(counterKey(pass.prefix, compiled.limiter, subject));
      }
    }
  }
  return refused;
}
