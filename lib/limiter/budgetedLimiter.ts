/**
 * A limiter under the subject budget (lib/limiter/subjectBudget.ts): every decision, give-back and
 * peek of the wrapped limiter is made with the subject `SubjectBudget.fold` gives (values over the
 * budget counted on overflow counters), and the values it reserved are settled by the outcome.
 * Otherwise exactly the wrapped limiter: one script call per decision, the same values and errors.
 */
import type { DecideOptions, Limiter } from "./decide";
import type { FoldPlan, SubjectBudget } from "./subjectBudget";
import type { Decision, LimiterRule, Subject } from "./types";

export function withSubjectBudget(limiter: Limiter, budget: SubjectBudget): Limiter {
  /** Runs `decide` with the folded subject and settles the plan's reservations by its outcome. */
  async function settled(
    rules: LimiterRule[],
    subject: Subject,
    decide: (subject: Subject) => Promise<Decision>,
  ): Promise<Decision> {
    const plan = budget.fold(rules, subject);
    if (!plan.reservations) return decide(plan.subject);
    let decision: Decision | undefined;
    try {
      decision = await decide(plan.subject);
      return decision;
    } finally {
      budget.settle(plan, decision);
    }
  }

  return {
    decide: (rules, subject, options?: DecideOptions) =>
      settled(rules, subject, (folded) => limiter.decide(rules, folded, options)),
    // A give-back goes to the counters its reservation charged: the subject as decide folded it,
    // found again without reserving (a value the budget holds keeps its own counter).
    giveBack: (reservation, rules, subject, options) =>
      limiter.giveBack(reservation, rules, budget.fold(rules, subject, false).subject, options),
    peek: (rules, subject, options) => limiter.peek(rules, budget.fold(rules, subject, false).subject, options),
    release: (lease, options) => limiter.release(lease, options),
    async decideThen(rules, subject, options, then) {
      const first: FoldPlan = budget.fold(rules, subject);
      const second: FoldPlan = budget.fold(then.rules, then.subject);
      let decisions: [Decision, Decision | undefined] | undefined;
      try {
        decisions = await limiter.decideThen(rules, first.subject, options, {
          rules: then.rules,
          subject: second.subject,
        });
        return decisions;
      } finally {
        budget.settle(first, decisions?.[0]);
        budget.settle(second, decisions?.[1]);
      }
    },
  };
}
