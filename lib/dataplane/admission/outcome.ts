/**
 * What admission (lib/dataplane/admission/admit.ts) answers: ONE outcome value per request, either
 * `admitted` or `refused`, holding everything the data plane's edge needs to act on it once
 * (lib/dataplane/admission/applyOutcome.ts): the `sluice_decisions_total` label, the limiter's
 * decision (its rules' verdicts are counted and it is recorded), who the monitoring data shows,
 * and, admitted, the client, the rate-limit headers, the concurrency lease and the deferred charge;
 * refused, the reply. Admission itself counts, records and takes nothing: a new exit is a new
 * label here, and the edge is where its effects are.
 */
import type { Reply } from "../../http/reply";
import type { Decision, Lease } from "../../limiter/types";
import type { KeyAccess } from "../../policy/compiled/accessLoader";
import type { DeferredCharge } from "./chargeByResponse";

/** Who an admitted request is: what the answer (echo, check, authorize) and the gateway use. */
export interface Client {
  tenantId: string;
  /** The caller's API key; absent for a JWT or anonymous caller (only on a tenant's host). */
  key?: KeyAccess;
  /** A JWT caller's subject. */
  subject?: string;
  /** A JWT caller's tier (its `tierClaim` claim: lib/policy/tiers); a key's is `key.tier`. */
  tier?: string;
  ip: string;
  /**
   * On a tenant's host, the header the caller's Sluice key came in (the gateway removes it), or
   * null: none was consumed (a JWT's `Authorization` passes on). Absent: the /api/v1 rule
   * (lib/dataplane/gateway/forwardHeaders.ts consumedCredential).
   */
  credential?: "authorization" | "x-api-key" | null;
}

/**
 * The `sluice_decisions_total{outcome}` label of an admitted request: `allowed` (the limiter
 * admitted it), `unmatched` (no rule of the caller applies: no limiter call), `access_allowed` (the
 * tenant's allow list admitted it before any rule).
 */
export type AdmittedLabel = "allowed" | "unmatched" | "access_allowed";

/**
 * The label of a refused request: `unauthenticated` (401: no or a refused credential, within the
 * anonymous limit), `unauthenticated_refused` (the anonymous limit refused: 429, or 503 when it
 * could not be decided), `store_unavailable` (503: the rule store never loaded), `jwks_unavailable`
 * (503: a tenant's JWKS cannot be had), `access_denied` (403: the tenant's deny list),
 * `attribute_missing` / `attribute_repeated` (400: a `header`/`query` rule's attribute), `refused`
 * (429: an enforce rule), `unavailable` (503: Redis could not answer and a `closed` rule applies).
 * Prometheus alert rules and the Grafana dashboard read these (deploy/prometheus, deploy/grafana).
 */
export type RefusedLabel =
  | "unauthenticated"
  | "unauthenticated_refused"
  | "store_unavailable"
  | "jwks_unavailable"
  | "access_denied"
  | "attribute_missing"
  | "attribute_repeated"
  | "refused"
  | "unavailable";

export interface Admitted {
  kind: "admitted";
  outcome: AdmittedLabel;
  client: Client;
  /** The rate-limit headers for the answer ({} without a decision). */
  headers: Record<string, string>;
  /** The limiter's decision; null: none was made (`unmatched`, `access_allowed`). */
  decision: Decision | null;
  /** Who the monitoring data shows under the client's tenant: a key id, a JWT subject (hostCaller.ts jwtMonitoringId); absent: anonymous. */
  recordedId?: string;
  /** The values `header`/`query` rules counted (recorded with the decision). */
  attributes?: Readonly<Record<string, string>>;
  /** Concurrency slots taken: given back once, when the request is over (applyOutcome.ts releaseLease). */
  lease?: Lease;
  /** Rules counted by response, reserved now and settled by the answer's status (chargeByResponse.ts). */
  charge?: DeferredCharge;
  /** The request's second decision (decideOnce.ts `then`: POST /api/v1/check's identifier), made in the same limiter call. */
  then?: Decision;
}

export interface Refused {
  kind: "refused";
  outcome: RefusedLabel;
  reply: Reply;
  /**
   * The decision that refused, or the anonymous limit's (`unauthenticated*`); absent: refused
   * before any decision, charging nothing, and not recorded.
   */
  decision?: Decision;
  /** With `decision`: whose monitoring data it goes to (the tenant, or ANONYMOUS_TENANT). */
  tenantId?: string;
  recordedId?: string;
  /** With `decision`: the caller's tier, for the simulator's trace. */
  tier?: string;
  attributes?: Readonly<Record<string, string>>;
}

export type Admission = Admitted | Refused;
