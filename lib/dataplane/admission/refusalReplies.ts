/**
 * The replies admission refuses with (lib/dataplane/admission/admit.ts), one function per refusal,
 * each a problem+json `Reply` (lib/http/problem.ts): what the client reads, so the wording is the
 * contract's and tests pin it. The headers given are the decision's rate-limit headers.
 */
import { problemReply, problemReplyFor } from "../../http/problem";
import type { Reply } from "../../http/reply";
import { retryAfterSeconds, violatedPolicies } from "../../limiter/headers";
import type { Decision, LimiterRule, RuleAttribute } from "../../limiter/types";
import { describeAttribute } from "./requestAttributes";

export const QUOTA_EXCEEDED_TYPE = "https://iana.org/assignments/http-problem-types#quota-exceeded";

export const NO_KEY_REASON = "An API key is required: send Authorization: Bearer <key> or x-api-key: <key>.";
export const BAD_KEY_REASON = "The API key is malformed, unknown, revoked or expired.";

/** The response for a decision that refused: 503 when the limiter was unavailable, else 429. */
export function refusalReply(decision: Decision, headers: Record<string, string>): Reply {
  if (decision.unavailable) {
    return problemReplyFor(
      "limiter_unavailable",
      "The rate limiter is unavailable and a rule that applies fails closed. Retry later.",
      {},
      { ...headers, "Retry-After": String(retryAfterSeconds(decision.retryAfterMs)) },
    );
  }
  const violated = violatedPolicies(decision);
  return problemReply(
    429,
    {
      type: QUOTA_EXCEEDED_TYPE,
      title: "Too Many Requests",
      detail: `Rate limit exceeded (${violated.join(", ")}). Retry in ${retryAfterSeconds(decision.retryAfterMs)} s.`,
      "violated-policies": violated,
      retryAfterMs: decision.retryAfterMs,
    },
    headers,
  );
}

/** 401: a missing or refused credential (within the anonymous limit, whose headers it carries). */
export function unauthorizedReply(reason: string, headers: Record<string, string>): Reply {
  return problemReplyFor("unauthorized", reason, {}, { ...headers, "WWW-Authenticate": 'Bearer realm="sluice"' });
}

/** 503: this instance has never been able to load the rule store. */
export function storeUnavailableReply(): Reply {
  return problemReplyFor(
    "db_unavailable",
    "API keys cannot be checked yet: the rule store is unavailable. Retry shortly.",
    {},
    { "Retry-After": "5" },
  );
}

/** 503: the tenant's JWKS cannot be had (lib/policy/identity), `reason` the verifier's. */
export function jwksUnavailableReply(reason: string): Reply {
  return problemReplyFor("jwks_unavailable", reason, {}, { "Retry-After": "60" });
}

/** 403: the tenant's deny list (lib/policy/access). */
export function accessDeniedReply(): Reply {
  return problemReplyFor(
    "forbidden",
    "This client is denied by the tenant's access list (its address or its API key).",
  );
}

/** 400 naming the header or query parameter a rule counts by, missing or sent with several values. */
export function badAttributeReply(problem: "missing" | "repeated", attribute: RuleAttribute, rule: LimiterRule): Reply {
  const what = describeAttribute(attribute);
  const name = JSON.stringify(rule.name);
  return problemReplyFor(
    "bad_request",
    problem === "missing"
      ? `This request must send the ${what}: rule ${name} counts requests by it.`
      : `This request must send the ${what} once, with one value: rule ${name} counts requests by it.`,
    { attribute: { in: attribute.source, name: attribute.name }, rule: rule.name },
  );
}
