/**
 * Runs lua/give_back.lua (as every script: lua/luaScript.ts), within the limiter's deadline: gives back what one admitted request reserved under
 * its rules counted by response (rule field chargeOn) whose answer's class they do not list.
 *
 * Contract
 * - A reservation is given back into the window it was reserved in, or not at all (a window that
 *   rolled over, a sliding_log entry that left the log, a token_bucket or gcra TAT that passed: see
 *   lua/includes/give_back.lua), so a give-back never credits a unit its window no longer counts.
 * - Resolves to, per rule, whether its units were given back; throws when Redis cannot answer in
 *   time (the caller logs and counts it: the reservation then stays charged).
 */
import type { RedisClient } from "../redis/connect";
import { withDeadline } from "../redis/deadline";
import { counterField } from "./keys";
import { luaScript } from "./lua/luaScript";
import { specWindow } from "./ruleSpec";
import type { LimiterRule } from "./types";

export const giveBackScript = luaScript("give_back.lua", "sluiceGiveBack");

/** One rule's reservation to give back: the key it was made in and, for TAT rules, the TAT it left. */
export interface Reservation {
  rule: LimiterRule;
  key: string;
  /** token_bucket, gcra: the reservation's TAT rounded up (its `nowMs` + the rule's `resetMs`); else 0. */
  tatUntilMs: number;
}

/**
 * Gives back `reservations`, all made by one decision at `reservedAtMs` (its `nowMs`). `nowMs`:
 * explicit time (tests), else Redis TIME.
 */
export async function runGiveBackScript(
  redis: RedisClient,
  reservations: readonly Reservation[],
  reservedAtMs: number,
  options: { timeoutMs: number; nowMs?: number },
): Promise<boolean[]> {
  const rules = reservations.map(({ rule, tatUntilMs }) => {
    // A calendar rule sends the bounds around the reservation's time (its period: ruleSpec.ts).
    const { code, window } = specWindow(rule, reservedAtMs);
    return [
      code,
      counterField(rule),
      rule.limit,
      window,
      rule.burst,
      rule.cost,
      Math.max(0, Math.ceil(tatUntilMs)),
    ].join(",");
  });
  const reply = await withDeadline(
    redis,
    () =>
      giveBackScript.run(
        redis,
        reservations.length,
        reservations.map((r) => r.key),
        String(reservedAtMs),
        options.nowMs === undefined ? "" : String(options.nowMs),
        rules,
      ),
    options.timeoutMs,
  );
  if (!Array.isArray(reply) || reply.length !== reservations.length || reply.some((v) => v !== 0 && v !== 1))
    throw new Error(`give_back reply: expected ${reservations.length} flags (0 or 1), got ${JSON.stringify(reply)}`);
  return reply.map((v) => v === 1);
}
