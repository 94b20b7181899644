/**
 * The one path every request the data plane serves takes before its answer (lib/dataplane/dataPlane.ts),
 * as a pipeline of steps that each answer a value, a refusal being one: the caller (and with it the
 * tenant), the rules the request meets, ONE decision, and the outcome value
 * (lib/dataplane/admission/outcome.ts). The edge applies its effects (metrics, monitoring data,
 * lease count: applyOutcome.ts); admission counts and records nothing itself. The steps:
 * 1. the rule store loaded, else refused `store_unavailable` (503; this instance has never been
 *    able to load it). No Postgres query happens here: keys and rules come from the access cache;
 * 2. the caller (caller.ts: a Sluice key under /api/v1; on a tenant's host, CONTRACT.md "Sluice in
 *    front of any API", a key of the tenant, a JWT subject or an anonymous caller), or its refusal
 *    (callerRefusal.ts: 401 `unauthenticated`, itself limited per client IP; 503 `jwks_unavailable`);
 * 3. the access list and the caller's rules that the request meets (rulesToDecide.ts): 403
 *    `access_denied`, admitted `access_allowed` or `unmatched` without a decision, 400 for a
 *    `header`/`query` attribute; else the rules and subject to decide;
 * 4. ONE limiter decision (decideOnce.ts): `allowed` with its rate-limit headers, else 429
 *    (`refused`) or 503 (`unavailable`).
 * `admit` runs them all. The data plane runs 1-3 (`prepareAdmission`) and 4 (`decideOnce`) itself,
 * so that POST /api/v1/check's identifier decision, which needs the caller's tenant, is made in the
 * same limiter call (decideOnce's `then`): admission never calls back into a route.
 * Concurrency rules (lib/limiter/algorithms/concurrency.ts): an admission that took slots carries
 * their `lease`; the edge gives it back exactly once with `releaseLease` (applyOutcome.ts) when the request is over.
 * Forward auth (`forwardAuth`) has no request end, so its concurrency rules do not apply. Rules
 * counted by response (chargeOn) are reserved by the decision and carried as the admission's `charge`.
 * Framework-free: the request is a small shape (method, decoded path, header getter, client IP),
 * and a refusal a plain `Reply`, so the hot path builds no web Request or Response.
 */
import type { Limiter } from "../../limiter/decide";
import type { AnswerBox } from "../../monitoring/record/recentDecisions";
import type { SluiceMetrics } from "../../monitoring/prometheus/metrics";
import type { DecisionSink } from "../../monitoring/record/decisionRecorder";
import type { AccessCache } from "../../policy/compiled/accessCache";
import type { KeyUsage } from "../../policy/keys/keyUsage";
import { hostClient, resolveCaller } from "./caller";
import { refuseCaller } from "./callerRefusal";
import type { HeaderSource } from "./credentials";
import { decideOnce, type ToDecide } from "./decideOnce";
import type { Admission } from "./outcome";
import { storeUnavailableReply } from "./refusalReplies";
import { rulesToDecide } from "./rulesToDecide";

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
}

/** Steps 1-3: the outcome when there is nothing to decide, else the rules and subject to decide. */
export async function prepareAdmission(request: AdmitRequest, deps: AdmitDeps): Promise<Admission | ToDecide> {
  const { access } = deps;
  try {
    if (!access.isReady()) await access.ready(); // an await per request costs CPU
  } catch {
    return { kind: "refused", outcome: "store_unavailable", reply: storeUnavailableReply() };
  }
  const resolved = resolveCaller(access, request);
  const client = resolved instanceof Promise ? hostClient(await resolved, request) : resolved;
  if ("refused" in client) return refuseCaller(deps, request.ip, client);
  if (client.key) deps.keyUsage?.noteUse(client.key.id);
  return rulesToDecide(access, client, request, deps.enforce);
}

/** Every step: the request's outcome (no following decision: the data plane's /api/v1/check adds one). */
export async function admit(request: AdmitRequest, deps: AdmitDeps): Promise<Admission> {
  const prepared = await prepareAdmission(request, deps);
  return prepared.kind === "decide" ? decideOnce(prepared, request, deps) : prepared;
}
