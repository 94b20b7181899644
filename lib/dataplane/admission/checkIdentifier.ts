/**
 * POST /api/v1/check: the decision service for other programs. Charges the tenant's
 * `identifier`-scope rule named `rule` for the caller-given `identifier` (under that identifier's
 * override, if the rule has one that matches) and answers the verdict
 * as a value (200 whether allowed or not). The call itself is admitted by the key's own rules
 * (lib/dataplane/admission/admit.ts); the data plane makes both decisions in one limiter call, the
 * identifier's counting only if the key's admitted (`identifierDecision`, then `checkAnswer`:
 * lib/dataplane/routes.ts checkPlan). The decision is handed to the monitoring recorder, if
 * given, as the rule's result (memory only, never awaited).
 */
import "server-only";
import { AppError } from "../../http/errors";
import type { Limiter } from "../../limiter/decide";
import { capacityOf, type Decision, type LimiterRule, type Subject } from "../../limiter/types";
import type { DecisionSink } from "../../monitoring/record/decisionRecorder";
import type { TenantAccess } from "../../policy/compiled/accessLoader";
import type { CheckRequest } from "../../policy/rules/checkRequest";
import type { CheckAnswer } from "../../policy/dataPlaneAnswers";

/** The decision to make for `input`: the rule (with the call's cost) and the identifier's subject. */
export function identifierDecision(
  tenant: TenantAccess | undefined,
  input: CheckRequest,
): { rules: LimiterRule[]; subject: Subject } {
  const found = tenant?.rules.find((r) => r.rule.name === input.rule);
  if (!tenant || !found)
    throw new AppError("not_found", `This tenant has no rule named ${JSON.stringify(input.rule)}.`);
  if (found.rule.scope !== "identifier") {
    throw new AppError(
      "not_found",
      `Rule ${JSON.stringify(input.rule)} has scope ${found.rule.scope}; only identifier rules can be checked.`,
    );
  }
  // Exact override, else the longest matching prefix, else the rule (lib/policy/overrides/overrideMatcher.ts).
  const charged = tenant.identifierOverrides?.get(input.rule)?.ruleFor(input.identifier) ?? found.limiter;
  const rule = input.cost === undefined ? charged : { ...charged, cost: input.cost };
  return { rules: [rule], subject: { tenantId: tenant.id, identifier: input.identifier } };
}

/** The answer for `decision`, made as `identifierDecision` says (recorded; 503 when Redis could not answer and the rule fails closed). */
export function checkAnswer(
  tenantId: string,
  input: CheckRequest,
  decision: Decision,
  recorder?: DecisionSink,
): CheckAnswer {
  recorder?.recordCheck(tenantId, decision, undefined, input.identifier);
  if (decision.unavailable)
    throw new AppError(
      "limiter_unavailable",
      "The rate limiter is unavailable and this rule fails closed. Retry later.",
      { headers: { "Retry-After": "1" } },
    );
  const result = decision.results[0]!;
  return {
    allowed: result.rule.mode === "shadow" ? true : result.allowed,
    limit: result.limit,
    capacity: capacityOf(result.rule),
    windowMs: result.rule.windowMs,
    remaining: result.remaining,
    resetMs: result.resetMs,
    retryAfterMs: result.retryAfterMs,
    rule: input.rule,
  };
}

export async function checkIdentifier(
  limiter: Limiter,
  tenant: TenantAccess | undefined,
  input: CheckRequest,
  recorder?: DecisionSink,
): Promise<CheckAnswer> {
  const { rules, subject } = identifierDecision(tenant, input);
  return checkAnswer(subject.tenantId, input, await limiter.decide(rules, subject), recorder);
}
