/** The two shapes of a goal (goals.ts and the parts' own goal files): a ratio of at least a target, and a value of at most one. */
import { round } from "./measure";
import type { Goal } from "./types";

/** num / den, at least `target`; no goal when either side was not measured (or den is 0). */
export function ratioGoal(goal: string, num: number | undefined, den: number | undefined, target: number): Goal[] {
  if (num === undefined || den === undefined || den === 0) return [];
  const value = round(num / den, 2);
  return [{ goal, value, target, direction: "at least", met: value >= target }];
}

export const atMost = (goal: string, value: number, target: number): Goal => ({
  goal,
  value,
  target,
  direction: "at most",
  met: value <= target,
});

/** num / den, at most `target` (a cost against a baseline's); none when either side is missing or not finite. */
export function costRatioGoal(goal: string, num: number | undefined, den: number | undefined, target: number): Goal[] {
  if (num === undefined || den === undefined || !Number.isFinite(num) || !Number.isFinite(den) || den <= 0) return [];
  return [atMost(goal, round(num / den, 2), target)];
}
