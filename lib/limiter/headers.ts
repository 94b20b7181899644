/**
 * Turns a decision into response headers, exactly as ../shared/CONTRACT.md states:
 * - `RateLimit-Policy`: every applied rule, `"name";q=<limit>;w=<window seconds>`;
 * - `RateLimit`: every applied enforce rule, most restrictive first, `"name";r=<remaining>;t=<seconds>`
 *   where t is the seconds until more quota is available (the retry time for a refusing rule);
 * - `X-RateLimit-Limit` / `-Remaining` / `-Reset` (epoch second) for the most restrictive enforce rule;
 *   the Limit is the rule's capacity (`capacityOf`: a bucket's `burst`, else its `limit`), the most
 *   its Remaining can be, so a client never reads more remaining than the limit;
 * - `Retry-After` (whole seconds, at least 1) on refused decisions.
 * Structured fields are serialized by `structured-headers` (RFC 9651), not by hand.
 * A decision with no results yields no headers.
 */
import { serializeList, type Item } from "structured-headers";
import { capacityOf, type Decision, type RuleResult } from "./types";

/** Whole seconds, rounding up: a client told "t=0" while it must wait would retry too early. */
export function toSeconds(ms: number): number {
  return Math.max(0, Math.ceil(ms / 1000));
}

export function retryAfterSeconds(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 1000));
}

/** When this rule next gives quota back, in ms from the decision. */
function untilMoreQuotaMs(result: RuleResult): number {
  return result.allowed ? result.nextMs : result.retryAfterMs;
}

/** Most restrictive first: refusing before admitting, fewer units left, longer wait. */
export function byRestrictiveness(a: RuleResult, b: RuleResult): number {
  return (
    Number(a.allowed) - Number(b.allowed) || a.remaining - b.remaining || untilMoreQuotaMs(b) - untilMoreQuotaMs(a)
  );
}

/**
 * A rule's `RateLimit-Policy` member, serialized once per rule object and limit (both fixed for a
 * compiled rule; a changed rule is a new object): the header is the members joined as a list.
 */
const policyMembers = new WeakMap<object, { limit: number; member: string }>();

function policyMember(r: RuleResult): string {
  const cached = policyMembers.get(r.rule);
  if (cached && cached.limit === r.limit) return cached.member;
  const member = serializeList([
    [
      r.rule.name,
      new Map([
        ["q", r.limit],
        ["w", Math.max(1, toSeconds(r.rule.windowMs))],
      ]),
    ],
  ]);
  policyMembers.set(r.rule, { limit: r.limit, member });
  return member;
}

export function rateLimitHeaders(decision: Decision): Record<string, string> {
  if (decision.results.length === 0) return {};
  const headers: Record<string, string> = {};
  headers["RateLimit-Policy"] =
    decision.results.length === 1 ? policyMember(decision.results[0]!) : decision.results.map(policyMember).join(", ");

  const enforced = decision.results.filter((r) => r.rule.mode === "enforce").sort(byRestrictiveness);
  if (enforced.length > 0) {
    headers["RateLimit"] = serializeList(
      enforced.map((r): Item => [
        r.rule.name,
        new Map([
          ["r", r.remaining],
          ["t", toSeconds(untilMoreQuotaMs(r))],
        ]),
      ]),
    );
    const top = enforced[0]!;
    headers["X-RateLimit-Limit"] = String(capacityOf(top.rule));
    headers["X-RateLimit-Remaining"] = String(top.remaining);
    headers["X-RateLimit-Reset"] = String(Math.ceil((decision.nowMs + untilMoreQuotaMs(top)) / 1000));
  }
  if (!decision.allowed) headers["Retry-After"] = String(retryAfterSeconds(decision.retryAfterMs));
  return headers;
}

/** Names of the enforce rules that refused (the problem body's `violated-policies`). */
export function violatedPolicies(decision: Decision): string[] {
  return decision.results.filter((r) => r.rule.mode === "enforce" && !r.allowed).map((r) => r.rule.name);
}
