/**
 * The calls of the gRPC part (grpcCases.ts) and the rules they meet, shared by Sluice's tenant and
 * the bare @grpc/grpc-js ceiling (dataplane/baselineServers.ts `grpc`), so both make the same
 * Redis call per ShouldRateLimit: one decide.lua script call (Sluice's limiter, EVALSHA) over one
 * generous token_bucket rule per descriptor (1e9 per 60 s: nothing is ever refused).
 * Descriptors: `remote_address`, then `path` and `user` (what Envoy's `remote_address` and
 * `request_headers` actions send), each counted per value; a call carries the first one or all three.
 */
import type { LimiterRule } from "../../../lib/limiter/types";
import type { RuleInput } from "../../../lib/policy/rules/ruleSchema";

export const DESCRIPTOR_COUNTS = [1, 3] as const;
export type DescriptorCount = (typeof DESCRIPTOR_COUNTS)[number];

const LIMIT = 1_000_000_000;
const WINDOW_MS = 60_000;

const DESCRIPTORS = [
  { rule: "per-address", key: "remote_address", value: "10.0.0.1" },
  { rule: "per-path", key: "path", value: "/orders" },
  { rule: "per-user", key: "user", value: "user-1" },
] as const;

/** The rules of Sluice's bench tenant (admin API): one per descriptor key. */
export function rlsRuleInputs(): RuleInput[] {
  return DESCRIPTORS.map((d) => ({
    name: d.rule,
    scope: "descriptor",
    algorithm: "token_bucket",
    limit: LIMIT,
    windowMs: WINDOW_MS,
    match: { descriptor: [{ key: d.key }] },
  }));
}

/** A RateLimitRequest with the first `count` descriptors, as Envoy's filter sends it. */
export function rlsRequest(domain: string, count: DescriptorCount) {
  return {
    domain,
    descriptors: DESCRIPTORS.slice(0, count).map((d) => ({ entries: [{ key: d.key, value: d.value }] })),
  };
}

/**
 * The limiter rules the ceiling decides for a call of `count` descriptors: what Sluice derives
 * from its tenant's rules (lib/dataplane/envoy/descriptorRules.ts), one per descriptor, its
 * subject in `Subject.attributes` under the slot `<descriptor index>:<ref>`.
 */
export function ceilingRules(count: number): LimiterRule[] {
  return DESCRIPTORS.slice(0, count).map((d, i) => ({
    name: d.rule,
    ref: String(i + 1),
    scope: "descriptor",
    algorithm: "token_bucket",
    limit: LIMIT,
    windowMs: WINDOW_MS,
    burst: LIMIT,
    cost: 1,
    blockMs: 0,
    failMode: "open",
    mode: "enforce",
    descriptorSlot: `${i}:${i + 1}`,
  }));
}
