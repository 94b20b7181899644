/**
 * ShouldRateLimit as Sluice decides it, free of gRPC (rlsServer.ts carries it over the wire).
 *
 * Contract: `shouldRateLimit(deps, decoded)` resolves to
 * - `{ invalid }`: the request is malformed (rlsRequest.ts): gRPC INVALID_ARGUMENT, nothing counted;
 * - `{ unavailable }`: Redis could not answer and a `closed` rule applies: gRPC UNAVAILABLE (Envoy
 *   then applies its `failure_mode_deny`);
 * - `{ response }`: the RateLimitResponse (rlsResponse.ts). An unknown domain (no such tenant) and
 *   a call no rule applies to answer OK with one plain OK status per descriptor.
 * The domain is a tenant id; its rules come from the data plane's access cache (no Postgres on this
 * path; while Postgres is down the last rules loaded stay in force; before any were ever loaded:
 * `{ unavailable }`). All the call's descriptors are
 * decided in ONE Limiter.decide (one atomic Redis call): a refusal charges nothing, shadow rules
 * never refuse, each rule's failMode applies.
 */
import type { Limiter } from "../../limiter/decide";
import type { Decision } from "../../limiter/types";
import type { TenantAccess } from "../../policy/compiled/accessLoader";
import { rulesForCall } from "./descriptorRules";
import { readRlsRequest } from "./rlsRequest";
import { rlsResponse, type RlsResponse } from "./rlsResponse";

export interface ShouldRateLimitDeps {
  /** Resolves once the rules were loaded at least once (AccessCache.ready); rejects while they cannot be. */
  ready?: () => Promise<void>;
  /** The tenant's loaded data, or undefined when unknown (AccessCache.tenant). */
  tenant(tenantId: string): TenantAccess | undefined;
  limiter: Limiter;
  /** Told about every decision and the subjects it was made for (metrics, monitoring). Must not throw. */
  onDecision?: (tenantId: string, decision: Decision, attributes: Readonly<Record<string, string>>) => void;
  /** Told how every call ended (metrics: sluice_envoy_calls_total). Must not throw. */
  onOutcome?: (outcome: RlsOutcome) => void;
}

export type RlsOutcome = "ok" | "over_limit" | "unknown_domain" | "invalid" | "unavailable" | "error";

export type ShouldRateLimitOutcome = { response: RlsResponse } | { invalid: string } | { unavailable: string };

const plainOk = (descriptors: number): RlsResponse => ({
  overall_code: "OK",
  statuses: Array.from({ length: descriptors }, () => ({ code: "OK" as const })),
  response_headers_to_add: [],
  request_headers_to_add: [],
});

export async function shouldRateLimit(deps: ShouldRateLimitDeps, decoded: unknown): Promise<ShouldRateLimitOutcome> {
  let outcome: RlsOutcome = "error";
  try {
    const answer = await decideCall(deps, decoded);
    outcome =
      "invalid" in answer
        ? "invalid"
        : "unavailable" in answer
          ? "unavailable"
          : answer.response.overall_code === "OVER_LIMIT"
            ? "over_limit"
            : answer.known
              ? "ok"
              : "unknown_domain";
    return answer;
  } finally {
    deps.onOutcome?.(outcome);
  }
}

async function decideCall(
  deps: ShouldRateLimitDeps,
  decoded: unknown,
): Promise<{ invalid: string } | { unavailable: string } | { response: RlsResponse; known: boolean }> {
  const call = readRlsRequest(decoded);
  if ("invalid" in call) return call;
  // A fresh instance that could not load any rules yet knows no limits: not "OK", but unavailable.
  if (
    deps.ready &&
    !(await deps.ready().then(
      () => true,
      () => false,
    ))
  )
    return { unavailable: "the rules are not loaded yet (the rule store is unreachable)" };
  const tenant = deps.tenant(call.domain);
  if (!tenant) return { response: plainOk(call.descriptors.length), known: false };
  const { rules, attributes, byDescriptor } = rulesForCall(tenant.rules, call.descriptors);
  if (rules.length === 0) return { response: plainOk(call.descriptors.length), known: true };
  const decision = await deps.limiter.decide(rules, { tenantId: tenant.id, attributes });
  deps.onDecision?.(tenant.id, decision, attributes);
  if (decision.unavailable)
    return { unavailable: "the rate limit store (Redis) is unavailable and a fail-closed rule applies" };
  return { response: rlsResponse(decision, byDescriptor), known: true };
}
