/**
 * The one path every request the data plane serves takes before its answer (lib/dataplane/dataPlane.ts),
 * in one pass: resolve the caller (and with it the tenant), take the caller's compiled rules, match
 * the request against them, decide ONCE, and answer an outcome value (lib/dataplane/admission/outcome.ts).
 * The edge applies its effects (metrics, monitoring data, lease count: applyOutcome.ts); admission
 * counts and records nothing itself. Each step is a module of its own:
 * 1. the rule store loaded, else refused `store_unavailable` (503; this instance has never been
 *    able to load it). No Postgres query happens here: keys and rules come from the access cache;
 * 2. the caller (caller.ts: a Sluice key under /api/v1; on a tenant's host, CONTRACT.md "Sluice in
 *    front of any API", a key of the tenant, a JWT subject or an anonymous caller). A missing or
 *    refused credential is a 401 (`unauthenticated`), itself limited per client IP: 429 beyond
 *    SLUICE_ANON_LIMIT_PER_MINUTE (`unauthenticated_refused`), so keys cannot be guessed at speed;
 *    decided and recorded under the pseudo-tenant ANONYMOUS_TENANT. A JWKS that cannot be had: 503
 *    (`jwks_unavailable`);
 * 3. the tenant's access list (lib/policy/access), by the client IP rules limit by (request.ip,
 *    clientIp.ts, whole: not per /64) and the caller's key, before any rule: deny is a 403
 *    (`access_denied`, charging nothing); allow admits without a limiter call and without
 *    rate-limit headers (`access_allowed`). `key:` entries never match a JWT or anonymous caller;
 * 4. the caller's rules (AccessCache.rulesFor: one call into the access cache, the compiled arrays
 *    as cached, precedence tenant < tier < key compiled at load) that the request meets
 *    (matchRules.ts): a `header`/`query` rule whose attribute is missing (`onMissing: refuse`) or
 *    repeated with different values is a 400 naming it (`attribute_missing`/`attribute_repeated`,
 *    nothing charged). None: admitted without a decision (`unmatched`);
 * 5. ONE limiter decision (with the request's `then` decision in the same call: Limiter.decideThen):
 *    admitted with its rate-limit headers (`allowed`), else 429 (`refused`) or 503 when Redis cannot
 *    answer and a `closed` rule applies (`unavailable`). A JWT caller counts `key` rules per subject.
 * Concurrency rules (lib/limiter/algorithms/concurrency.ts): an admission that took slots carries
 * their `lease`; the edge gives it back exactly once with `releaseLease` (applyOutcome.ts) when the request is over.
 * Forward auth (`forwardAuth`) has no request end, so its concurrency rules do not apply. Rules
 * counted by response (chargeOn) are reserved by the decision and carried as the admission's `charge`.
 * Framework-free: the request is a small shape (method, decoded path, header getter, client IP),
 * and a refusal a plain `Reply`, so the hot path builds no web Request or Response.
 */
import type { Limiter } from "../../limiter/decide";
import { rateLimitHeaders } from "../../limiter/headers";
import type { Decision, LimiterRule, Subject } from "../../limiter/types";
import type { AnswerBox } from "../../monitoring/record/recentDecisions";
import type { SluiceMetrics } from "../../monitoring/prometheus/metrics";
import type { DecisionSink } from "../../monitoring/record/decisionRecorder";
import type { AccessCache } from "../../policy/compiled/accessCache";
import { ANONYMOUS_TENANT, anonymousRule } from "../../policy/compiled/anonymousRule";
import { counterIdOf, hostClient, monitoringIdOf, resolveCaller } from "./caller";
import type { HeaderSource } from "./credentials";
import type { KeyUsage } from "../../policy/keys/keyUsage";
import { matchRules } from "./matchRules";
import type { Admission, Admitted, Client } from "./outcome";
import {
  accessDeniedReply,
  badAttributeReply,
  jwksUnavailableReply,
  refusalReply,
  storeUnavailableReply,
  unauthorizedReply,
} from "./refusalReplies";

export interface AdmitDeps {
  access: AccessCache;
  limiter: Limiter;
  anonLimitPerMinute: number;
  /** false: authenticate only, check no rule (SLUICE_ENFORCEMENT=off). */
  enforce: boolean;
  metrics?: SluiceMetrics;
  keyUsage?: KeyUsage;
  /** Monitoring data (lib/monitoring/record/decisionRecorder.ts), fed by the edge (applyOutcome.ts). */
  recorder?: DecisionSink;
}

/** The decision a `FollowingDecision` asks for; undefined: none (the request's own stands alone). */
export type ThenDecision = { rules: LimiterRule[]; subject: Subject } | undefined;

/**
 * A second decision that counts only if the request's own admits (POST /api/v1/check: the
 * identifier's, lib/dataplane/routes.ts CheckPlan), asked for once the caller is known and its
 * rules are to be decided: both are made in one limiter call and the second comes back as the
 * admission's `then`. An object with a method, not a closure: nothing allocated per request for it.
 */
export interface FollowingDecision {
  decisionFor(client: Client): ThenDecision | Promise<ThenDecision>;
}

/** What admission needs of a request. */
export interface AdmitRequest {
  /** The method rules match (HEAD is charged as GET: lib/policy/compiled/effectiveRules.ts). */
  method: string;
  /**
   * The path rules match, decoded once (lib/dataplane/requestPath.ts), without the query: the path
   * the protected API sees (lib/dataplane/requestRoute.ts `rulePathOf`).
   */
  path: string;
  headers: HeaderSource;
  /**
   * The method a method-override header asks for (lib/dataplane/admission/methodOverride.ts): rules
   * that match it apply as well as those that match `method`.
   */
  overrideMethod?: string;
  /** The client IP (lib/http/clientIp.ts). */
  ip: string;
  /** Filled with the status of the answer once sent; recorded with the key's recent decision. */
  answered?: AnswerBox;
  /**
   * Forward auth (/api/v1/authorize): Sluice never sees the request end, so concurrency rules do not
   * apply, nor the answer's status, so rules counted by response (chargeOn) stay charged from
   * admission. Otherwise those are reserved (charged) at admission and returned as the admission's
   * `charge`, to be given back if the answer's class is not listed (chargeByResponse.ts).
   */
  forwardAuth?: boolean;
  /** The tenant whose host the request came to (its callers and rules apply: caller.ts). */
  hostTenant?: string;
  /** The raw query string (with its `?`; absent or "": none): what `query` rules read (lib/dataplane/admission/requestAttributes.ts). */
  query?: string;
  /** A second decision made in the same limiter call, counting only if this one admits. */
  then?: FollowingDecision;
}

async function timedDecide(
  deps: AdmitDeps,
  rules: LimiterRule[],
  subject: Subject,
  then?: { rules: LimiterRule[]; subject: Subject },
): Promise<[Decision, Decision | undefined]> {
  const stop = deps.metrics?.decideSeconds.startTimer();
  try {
    if (then) return await deps.limiter.decideThen(rules, subject, {}, then);
    return [await deps.limiter.decide(rules, subject), undefined];
  } finally {
    stop?.();
  }
}

/** A 401 (a missing or refused credential), itself limited per client IP. */
async function unauthenticated(deps: AdmitDeps, ip: string, reason: string): Promise<Admission> {
  const [decision] = await timedDecide(deps, [anonymousRule(deps.anonLimitPerMinute)], {
    tenantId: ANONYMOUS_TENANT,
    ip,
  });
  const headers = rateLimitHeaders(decision);
  return decision.allowed
    ? {
        kind: "refused",
        outcome: "unauthenticated",
        reply: unauthorizedReply(reason, headers),
        decision,
        tenantId: ANONYMOUS_TENANT,
      }
    : {
        kind: "refused",
        outcome: "unauthenticated_refused",
        reply: refusalReply(decision, headers),
        decision,
        tenantId: ANONYMOUS_TENANT,
      };
}

export async function admit(request: AdmitRequest, deps: AdmitDeps): Promise<Admission> {
  const { access } = deps;
  try {
    if (!access.isReady()) await access.ready(); // an await per request costs CPU
  } catch {
    return { kind: "refused", outcome: "store_unavailable", reply: storeUnavailableReply() };
  }
  const resolved = resolveCaller(access, request);
  const client = resolved instanceof Promise ? hostClient(await resolved, request) : resolved;
  if ("refused" in client) {
    if (client.refused === "unauthorized") return unauthenticated(deps, request.ip, client.reason);
    return { kind: "refused", outcome: "jwks_unavailable", reply: jwksUnavailableReply(client.reason) };
  }
  const { tenantId, key, ip } = client;
  if (key) deps.keyUsage?.noteUse(key.id);
  const recordedId = monitoringIdOf(client);

  const listed = access.tenant(tenantId)?.accessLists?.verdict(ip, key?.id) ?? null;
  if (listed === "deny") return { kind: "refused", outcome: "access_denied", reply: accessDeniedReply() };
  if (listed === "allow")
    return { kind: "admitted", outcome: "access_allowed", client, headers: {}, decision: null, recordedId };

  const callerId = counterIdOf(client);
  const matched = matchRules(access.rulesFor(tenantId, client), request, callerId !== undefined, deps.enforce);
  if (!matched.ok) {
    // Refused before any decision: nothing is charged. Named so the client can fix its request.
    const reply = badAttributeReply(matched.problem, matched.attribute, matched.rule);
    return {
      kind: "refused",
      outcome: matched.problem === "missing" ? "attribute_missing" : "attribute_repeated",
      reply,
    };
  }
  const { rules, attributes } = matched;
  if (rules.length === 0)
    return { kind: "admitted", outcome: "unmatched", client, headers: {}, decision: null, recordedId };

  const subject: Subject = attributes
    ? { tenantId, keyId: callerId, ip, attributes }
    : { tenantId, keyId: callerId, ip };
  let then = request.then?.decisionFor(client);
  if (then instanceof Promise) then = await then;
  const [decision, thenDecision] = await timedDecide(deps, rules, subject, then);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    const outcome = decision.unavailable ? "unavailable" : "refused";
    return {
      kind: "refused",
      outcome,
      reply: refusalReply(decision, headers),
      decision,
      tenantId,
      recordedId,
      tier: client.tier ?? client.key?.tier,
      attributes,
    };
  }
  const admitted: Admitted = {
    kind: "admitted",
    outcome: "allowed",
    client,
    headers,
    decision,
    recordedId,
    attributes,
  };
  if (thenDecision) admitted.then = thenDecision;
  if (!request.forwardAuth && rules.some((rule) => rule.chargeOn))
    admitted.charge = { rules: rules.filter((rule) => rule.chargeOn), subject, reservation: decision };
  if (decision.lease) admitted.lease = decision.lease;
  return admitted;
}
