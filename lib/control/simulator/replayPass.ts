/**
 * Replays recorded requests through the reference models (replayCounters.ts) with explicit time:
 * each request is decided at its recorded time, against the rules that would apply to it
 * (enforcement's own matching, lib/policy/compiled/effectiveRules.ts), for its recorded subject.
 *
 * - Nothing reaches Redis: a simulation cannot slow live decisions down there, whatever its rules
 *   (a `sliding_log` of a large limit over 200,000 requests once held Redis for seconds per call).
 * - In this process, the replay runs in slices of at most SLICE_MS and then yields to the event
 *   loop, so this instance's live requests are served between slices.
 * - `entries` must be sorted by time (lib/control/simulator/traceReader.ts sorts them).
 * - The tenant's access lists, when given, are asked first as admission asks them
 *   (lib/dataplane/admission/admit.ts), by the recorded client IP and key: a denied request is refused and
 *   charges nothing, an allowed one passes every rule and charges nothing.
 * Returns one byte per request: 1 when refused, 0 when admitted (also when no rule applied).
 */
import type { AccessMatcher } from "../../policy/access/accessMatcher";
import { rulesForRequest, type CompiledRule } from "../../policy/compiled/effectiveRules";
import { counterField, counterKey, penaltyField, penaltyKey, stateId } from "../../limiter/keys";
import type { LimiterRule, Subject } from "../../limiter/types";
import type { TraceEntry } from "../../monitoring/record/requestTrace";
import { ReplayCounters } from "./replayCounters";

/** Longest stretch the replay keeps the event loop before yielding. */
export const SLICE_MS = 10;

export interface ReplayPass {
  tenantId: string;
  /** The rule set a request of this key (null: no key) in this tier (absent: none) is checked against. */
  rulesOf(keyId: string | null, tier?: string): CompiledRule[];
  /** The tenant's access lists (absent: none). */
  accessLists?: AccessMatcher;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function replayPass(entries: readonly TraceEntry[], pass: ReplayPass): Promise<Uint8Array> {
  const refused = new Uint8Array(entries.length);
  const counters = new ReplayCounters();
  const subjects = new Map<string, Subject>();
  // Each rule's state per subject, named as the limiter names it (rules of one subject share a
  // Redis key, told apart by their field), built once each.
  const keyCache = new Map<LimiterRule, Map<string, string>>();
  const keyOf = (rule: LimiterRule, id: string, subject: Subject): string => {
    let byRule = keyCache.get(rule);
    if (!byRule) keyCache.set(rule, (byRule = new Map()));
    let key = byRule.get(id);
    if (key === undefined) byRule.set(id, (key = stateId(counterKey("", rule, subject), counterField(rule))));
    return key;
  };
  // Penalty ids likewise, for the rules that have a penalty ("" for the others).
  const penaltyCache = new Map<LimiterRule, Map<string, string>>();
  const penaltyOf = (rule: LimiterRule, id: string, subject: Subject): string => {
    if (rule.blockMs <= 0) return "";
    let byRule = penaltyCache.get(rule);
    if (!byRule) penaltyCache.set(rule, (byRule = new Map()));
    let key = byRule.get(id);
    if (key === undefined) byRule.set(id, (key = stateId(penaltyKey("", rule, subject), penaltyField(rule))));
    return key;
  };
  let sliceStart = performance.now();
  for (let i = 0; i < entries.length; i++) {
    if ((i & 255) === 255 && performance.now() - sliceStart > SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
    const entry = entries[i]!;
    const listed = pass.accessLists?.verdict(entry.ip ?? "unknown", entry.keyId ?? undefined);
    if (listed === "deny") refused[i] = 1;
    if (listed) continue;
    // Concurrency and header/query rules are not replayed: the trace holds neither durations nor attributes (simulator.ts).
    const rules = replayedRules(rulesForRequest(pass.rulesOf(entry.keyId, entry.tier), entry.method, entry.path));
    if (rules.length === 0) continue;
    const ip = entry.ip ?? "unknown";
    const id = `${entry.keyId ?? ""} ${ip}`;
    let subject = subjects.get(id);
    if (!subject) subjects.set(id, (subject = { tenantId: pass.tenantId, keyId: entry.keyId ?? undefined, ip }));
    const keys = rules.map((rule) => keyOf(rule, id, subject!));
    const penalties = rules.some((rule) => rule.blockMs > 0)
      ? rules.map((rule) => penaltyOf(rule, id, subject!))
      : undefined;
    if (counters.refuses(rules, keys, entry.atMs, penalties)) refused[i] = 1;
  }
  return refused;
}

/**
 * The rules a replay can decide: all but concurrency ones (a slot's release depends on how long
 * requests took), `header`/`query` ones (the trace holds no request headers or query strings) and
 * those counted by response (chargeOn: the trace holds no response statuses).
 */
function replayedRules(rules: LimiterRule[]): LimiterRule[] {
  const left = (rule: LimiterRule) =>
    rule.algorithm === "concurrency" || rule.attribute !== undefined || rule.chargeOn !== undefined;
  return rules.some(left) ? rules.filter((rule) => !left(rule)) : rules;
}
