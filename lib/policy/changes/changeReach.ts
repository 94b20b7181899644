/**
 * How far a change reached when the admin API answers, told to the caller.
 *
 * A committed change is in force on this instance before the API answers (announceChange.ts), and
 * on every other instance within ~1 ms of the change notice it publishes over Redis. When that
 * notice cannot be sent (Redis unreachable), the others apply the change only at their next full
 * reload from Postgres (every FULL_REFRESH_MS, 15 s): the change is saved and in force here, but a
 * plain 200 would claim "everywhere within 1 s" (the contract) falsely. So the answer keeps its
 * success status (the change IS saved: a client retrying a create would make a second one) and
 * says so:
 * - `Sluice-Propagation: delayed; within=<s>`: other instances apply it within `<s>` seconds;
 * - `Warning: 199 sluice "..."`, the same in words, for tools that show warnings.
 * Answers of changes that reached everyone carry neither.
 *
 * `trackChangeReach(fn)` runs one admin request (lib/control/admin/adminRoute.ts) with a note that
 * `noteDelayedChange(seconds)` (lib/runtime/services.ts `announce`) fills; `changeReachHeaders`
 * turns the note into those headers. Outside `trackChangeReach` noting does nothing.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export interface ChangeReachNote {
  /** Set when a change's notice could not be sent: the bound, in seconds, for other instances. */
  delayedWithinSeconds?: number;
}

const notes = new AsyncLocalStorage<ChangeReachNote>();

export const PROPAGATION_HEADER = "Sluice-Propagation";

export async function trackChangeReach<T>(fn: () => Promise<T>): Promise<{ value: T; note: ChangeReachNote }> {
  const note: ChangeReachNote = {};
  const value = await notes.run(note, fn);
  return { value, note };
}

export function noteDelayedChange(withinSeconds: number): void {
  const note = notes.getStore();
  if (note) note.delayedWithinSeconds = Math.max(note.delayedWithinSeconds ?? 0, withinSeconds);
}

export function changeReachHeaders(note: ChangeReachNote): Record<string, string> {
  const within = note.delayedWithinSeconds;
  if (within === undefined) return {};
  return {
    [PROPAGATION_HEADER]: `delayed; within=${within}`,
    Warning: `199 sluice "Saved and in force on this instance; other instances apply it within ${within} s, at their next full reload (the change notice could not be sent: Redis unavailable)"`,
  };
}
