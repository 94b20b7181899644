/**
 * The one path every request under /api/v1 takes before its handler (lib/dataplane): authenticate the API key,
 * pick the key's rules that match the method and path, make ONE limiter decision, and either admit
 * the request (with the rate-limit headers to add to its response) or answer it:
 * - 401 for a missing, malformed, unknown, revoked or expired key, itself limited per client IP (429 beyond
 *   SLUICE_ANON_LIMIT_PER_MINUTE), so keys cannot be guessed at speed;
 * - 400 naming the header or query parameter when a `header`/`query` rule with `onMissing: refuse`
 *   applies and the request lacks it, or an enforce rule's header or parameter is sent several
 *   times with different values (nothing charged; lib/dataplane/admission/requestAttributes.ts);
 * - 429 with the contract's problem body when an enforce rule refuses;
 * - 403 when the tenant's access list denies the client (by its address or its key: lib/policy/access),
 *   before any rule and charging nothing; a client on the allow list (and not the deny list) is
 *   admitted without a limiter call and without rate-limit headers. The address matched is the
 *   client IP rules limit by (request.ip, lib/dataplane/admission/clientIp.ts), whole (not per /64). The lists
 *   belong to the key's tenant, so they apply once the key is verified (an unauthenticated request
 *   has no tenant and meets the anonymous limit only);
 * - 503 when Redis cannot answer and a `closed` rule applies, or when this instance has never been
 *   able to load the rule store.
 * No Postgres query happens here: keys and rules come from the access cache.
 * Every decided request is also handed to the monitoring recorder (memory only, never awaited):
 * authenticated ones under their tenant and key with their method and path (no query string, for
 * the key's recent decisions) and client IP (for the simulator's trace), a request no rule matched as admitted traffic, and the anonymous
 * limit's decisions under the pseudo-tenant ANONYMOUS_TENANT. A client admitted by the allow list is
 * recorded like a request no rule matched; one refused by the deny list is not recorded (it counts
 * in sluice_access_list_verdicts_total and sluice_decisions_total{outcome="access_denied"}).
 * Concurrency rules (lib/limiter/algorithms/concurrency.ts): an admission that took slots carries
 * their `lease`; the caller gives it back exactly once with `releaseLease` when the request is over.
 * Forward auth (`forwardAuth`) has no request end, so its concurrency rules do not apply.
 * On a tenant's host (`hostTenant`, CONTRACT.md "Sluice in front of any API") the caller is that
 * tenant's (lib/dataplane/admission/hostCaller.ts): a key of the tenant, a JWT subject or an
 * anonymous caller. A JWT caller counts `key` rules per subject (its counter's key id is the subject
 * marked with `~`, which no key id holds); an anonymous caller meets no `key` rule. Both have the
 * tenant's rules; the access list's `key:` entries never match them. A refused credential is a
 * 401 through the anonymous limit, as a bad key is; a JWKS that cannot be had, a 503.
 * Framework-free: the request is a small shape (method, decoded path, header getter, client IP),
 * and the answer a plain `Reply`, so the hot path builds no web Request or Response.
 */
import { keyIdOf, verifyKey } from "../../policy/keys/apiKeySecret";
import { problemReply, problemReplyFor } from "../../http/problem";
import type { Reply } from "../../http/reply";
import type { Limiter } from "../../limiter/decide";
import { rateLimitHeaders, retryAfterSeconds, violatedPolicies } from "../../limiter/headers";
import type { Decision, Lease, LimiterRule, Subject } from "../../limiter/types";
import type { DecisionSink } from "../../monitoring/record/decisionRecorder";
import { MAX_PATH_CHARS, type AnswerBox } from "../../monitoring/record/recentDecisions";
import type { SluiceMetrics } from "../../monitoring/prometheus/metrics";
import type { AccessCache } from "../../policy/compiled/accessCache";
import type { KeyAccess } from "../../policy/compiled/accessLoader";
import type { DeferredCharge } from "./chargeByResponse";
import { presentedKey, type HeaderSource } from "./credentials";
import { rulesForRequest } from "../../policy/compiled/effectiveRules";
import { ANONYMOUS_TENANT, anonymousRule } from "../../policy/compiled/anonymousRule";
import { describeAttribute, resolveAttributes } from "./requestAttributes";
import type { KeyUsage } from "./keyUsage";
import { hostCaller, jwtMonitoringId, JWT_SUBJECT_MARK } from "./hostCaller";
import type { CompiledRule } from "../../policy/compiled/effectiveRules";

export const QUOTA_EXCEEDED_TYPE = "https://iana.org/assignments/http-problem-types#quota-exceeded";

export interface AdmitDeps {
  access: AccessCache;
  limiter: Limiter;
  anonLimitPerMinute: number;
  /** false: authenticate only, check no rule (SLUICE_ENFORCEMENT=off). */
  enforce: boolean;
  metrics?: SluiceMetrics;
  keyUsage?: KeyUsage;
  /** Monitoring data (lib/monitoring/record/decisionRecorder.ts). */
  recorder?: DecisionSink;
}

export interface Client {
  tenantId: string;
  /** The caller's API key; absent for a JWT or anonymous caller (only on a tenant's host). */
  key?: KeyAccess;
  /** A JWT caller's subject. */
  subject?: string;
  ip: string;
  /**
   * On a tenant's host, the header the caller's Sluice key came in (the gateway removes it), or
   * null: none was consumed (a JWT's `Authorization` passes on). Absent: the /api/v1 rule
   * (lib/dataplane/gateway/forwardHeaders.ts consumedCredential).
   */
  credential?: "authorization" | "x-api-key" | null;
}

/** What admission needs of a request. */
export interface AdmitRequest {
  /** The method rules match (HEAD is charged as GET: lib/policy/compiled/effectiveRules.ts). */
  method: string;
  /** The path rules match, decoded once (lib/dataplane/requestPath.ts), without the query. */
  path: string;
  headers: HeaderSource;
  /**
   * The method a method-override header asks for (lib/dataplane/admission/methodOverride.ts): rules
   * that match it apply as well as those that match `method`.
   */
  overrideMethod?: string;
  /** The client IP (lib/dataplane/admission/clientIp.ts). */
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
  /** The tenant whose host the request came to (its callers and rules apply: see above). */
  hostTenant?: string;
  /** The raw query string (with its `?`; absent or "": none): what `query` rules read (lib/dataplane/admission/requestAttributes.ts). */
  query?: string;
  /**
   * A second decision that counts only if this one admits (POST /api/v1/check: the identifier's),
   * asked for once the key is authenticated and its rules are to be decided: both are made in one
   * limiter call (Limiter.decideThen) and the second comes back as the admission's `then`.
   */
  then?: (client: Client) => ThenDecision | Promise<ThenDecision>;
}

type ThenDecision = { rules: LimiterRule[]; subject: Subject } | undefined;

export type Admission =
  | {
      admitted: true;
      client: Client;
      headers: Record<string, string>;
      lease?: Lease;
      charge?: DeferredCharge;
      then?: Decision;
    }
  | { admitted: false; reply: Reply };

/** Gives an admission's concurrency slots back (once, when the request is over); never throws. */
export async function releaseLease(deps: Pick<AdmitDeps, "limiter" | "metrics">, lease: Lease): Promise<void> {
  const released = await deps.limiter.release(lease);
  const leases = deps.metrics?.concurrencyLeases;
  if (!leases) return;
  if (released === null) leases.inc({ event: "unreleased" }, lease.keys.length);
  else {
    if (released > 0) leases.inc({ event: "released" }, released);
    if (released < lease.keys.length) leases.inc({ event: "expired" }, lease.keys.length - released);
  }
}

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

function count(deps: AdmitDeps, outcome: string, decision?: Decision): void {
  const m = deps.metrics;
  if (!m) return;
  m.decisions.inc({ outcome });
  if (!decision) return;
  for (const r of decision.results) {
    const result = r.allowed ? "allowed" : r.rule.mode === "shadow" ? "would_refuse" : "refused";
    m.ruleResults.inc({ rule: r.rule.name, result });
    if (r.penalized) m.penaltyRefusals.inc({ rule: r.rule.name, result });
  }
}

/** Feeds the monitoring data; `decision` null: no rule matched (admitted without a decision). */
function record(
  deps: AdmitDeps,
  request: AdmitRequest,
  tenantId: string,
  keyId: string | undefined,
  decision: Decision | null,
  attributes?: Readonly<Record<string, string>>,
): void {
  deps.recorder?.recordRequest({
    tenantId,
    keyId,
    decision,
    method: request.method,
    path: request.path.slice(0, MAX_PATH_CHARS),
    ip: request.ip,
    attributes,
    ...(request.answered ? { answered: request.answered } : {}),
  });
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

async function anonymous(deps: AdmitDeps, request: AdmitRequest, reason: string): Promise<Admission> {
  return refusedCredential(deps, request, reason);
}

/** A 401 (a missing or refused credential), itself limited per client IP. */
async function refusedCredential(deps: AdmitDeps, request: AdmitRequest, reason: string): Promise<Admission> {
  const [decision] = await timedDecide(deps, [anonymousRule(deps.anonLimitPerMinute)], {
    tenantId: ANONYMOUS_TENANT,
    ip: request.ip,
  });
  const headers = rateLimitHeaders(decision);
  record(deps, request, ANONYMOUS_TENANT, undefined, decision);
  if (!decision.allowed) {
    count(deps, "unauthenticated_refused", decision);
    return { admitted: false, reply: refusalReply(decision, headers) };
  }
  count(deps, "unauthenticated");
  return {
    admitted: false,
    reply: problemReplyFor("unauthorized", reason, {}, { ...headers, "WWW-Authenticate": 'Bearer realm="sluice"' }),
  };
}

export async function admit(request: AdmitRequest, deps: AdmitDeps): Promise<Admission> {
  const ip = request.ip;
  try {
    if (!deps.access.isReady()) await deps.access.ready(); // an await per request costs CPU
  } catch {
    count(deps, "store_unavailable");
    return {
      admitted: false,
      reply: problemReplyFor(
        "db_unavailable",
        "API keys cannot be checked yet: the rule store is unavailable. Retry shortly.",
        {},
        { "Retry-After": "5" },
      ),
    };
  }
  let key: KeyAccess | undefined;
  let tenantId: string;
  /** The `key` scope's subject: the key id, a JWT caller's marked subject; undefined: anonymous. */
  let callerId: string | undefined;
  /** Who the monitoring data shows (a JWT subject in a safe form: hostCaller.ts jwtMonitoringId). */
  let recordedId: string | undefined;
  let ownRules: CompiledRule[];
  let client: Client;
  if (request.hostTenant === undefined) {
    const presented = presentedKey(request.headers);
    if (presented === null)
      return anonymous(deps, request, "An API key is required: send Authorization: Bearer <key> or x-api-key: <key>.");
    const keyId = keyIdOf(presented);
    key = keyId ? deps.access.liveKey(keyId) : undefined;
    if (!key || !verifyKey(presented, key.secretHash))
      return anonymous(deps, request, "The API key is malformed, unknown, revoked or expired.");
    tenantId = key.tenantId;
    callerId = recordedId = key.id;
    ownRules = key.rules;
    client = { tenantId, key, ip };
  } else {
    tenantId = request.hostTenant;
    const caller = await hostCaller(deps.access, tenantId, request.headers);
    if ("refused" in caller) {
      if (caller.refused === "unauthorized") return refusedCredential(deps, request, caller.reason);
      count(deps, "jwks_unavailable");
      return {
        admitted: false,
        reply: problemReplyFor("jwks_unavailable", caller.reason, {}, { "Retry-After": "60" }),
      };
    }
    if (caller.kind === "key") {
      key = caller.key;
      callerId = recordedId = key.id;
      ownRules = key.rules;
      client = { tenantId, key, ip, credential: caller.credential };
    } else {
      ownRules = deps.access.tenant(tenantId)?.rules ?? [];
      callerId = caller.kind === "jwt" ? JWT_SUBJECT_MARK + caller.subject : undefined;
      recordedId = caller.kind === "jwt" ? jwtMonitoringId(caller.subject) : undefined;
      client =
        caller.kind === "jwt"
          ? { tenantId, subject: caller.subject, ip, credential: null }
          : { tenantId, ip, credential: null };
    }
  }

  if (key) deps.keyUsage?.noteUse(key.id);
  const listed = deps.access.tenant(tenantId)?.accessLists?.verdict(ip, key?.id) ?? null;
  if (listed === "deny") {
    count(deps, "access_denied");
    deps.metrics?.accessListVerdicts.inc({ verdict: "deny" });
    return {
      admitted: false,
      reply: problemReplyFor(
        "forbidden",
        "This client is denied by the tenant's access list (its address or its API key).",
      ),
    };
  }
  if (listed === "allow") {
    count(deps, "access_allowed");
    deps.metrics?.accessListVerdicts.inc({ verdict: "allow" });
    record(deps, request, tenantId, recordedId, null);
    return { admitted: true, client, headers: {} };
  }
  let matched = deps.enforce ? rulesForRequest(ownRules, request.method, request.path, request.overrideMethod) : [];
  // An anonymous caller has no `key` counter: those rules do not apply to it.
  if (callerId === undefined && matched.some((rule) => rule.scope === "key"))
    matched = matched.filter((rule) => rule.scope !== "key");
  const resolved = resolveAttributes(matched, request);
  if (!resolved.ok) {
    // Refused before any decision: nothing is charged. Named so the client can fix its request.
    count(deps, `attribute_${resolved.problem}`);
    const what = describeAttribute(resolved.attribute);
    const rule = JSON.stringify(resolved.rule.name);
    return {
      admitted: false,
      reply: problemReplyFor(
        "bad_request",
        resolved.problem === "missing"
          ? `This request must send the ${what}: rule ${rule} counts requests by it.`
          : `This request must send the ${what} once, with one value: rule ${rule} counts requests by it.`,
        {
          attribute: { in: resolved.attribute.source, name: resolved.attribute.name },
          rule: resolved.rule.name,
        },
      ),
    };
  }
  const { attributes } = resolved;
  let rules = resolved.rules;
  if (request.forwardAuth && rules.some((rule) => rule.algorithm === "concurrency"))
    rules = rules.filter((rule) => rule.algorithm !== "concurrency");
  if (rules.length === 0) {
    count(deps, "unmatched");
    record(deps, request, tenantId, recordedId, null);
    return { admitted: true, client, headers: {} };
  }
  const subject: Subject = attributes
    ? { tenantId, keyId: callerId, ip, attributes }
    : { tenantId, keyId: callerId, ip };
  const deferred = request.forwardAuth ? [] : rules.filter((rule) => rule.chargeOn);
  let then = request.then?.(client);
  if (then instanceof Promise) then = await then;
  const [decision, thenDecision] = await timedDecide(deps, rules, subject, then);
  const headers = rateLimitHeaders(decision);
  record(deps, request, tenantId, recordedId, decision, attributes);
  if (!decision.allowed) {
    count(deps, decision.unavailable ? "unavailable" : "refused", decision);
    return { admitted: false, reply: refusalReply(decision, headers) };
  }
  count(deps, "allowed", decision);
  const admitted: Admission = { admitted: true, client, headers };
  if (thenDecision) admitted.then = thenDecision;
  if (deferred.length > 0) admitted.charge = { rules: deferred, subject, reservation: decision };
  if (!decision.lease) return admitted;
  deps.metrics?.concurrencyLeases.inc({ event: "taken" }, decision.lease.keys.length);
  return { ...admitted, lease: decision.lease };
}
