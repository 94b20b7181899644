/**
 * Which of a caller's rules a request meets, ready for the limiter (admission's step between
 * the caller's rules and the one decision: lib/dataplane/admission/admit.ts).
 *
 * Contract
 * - With enforcement off (SLUICE_ENFORCEMENT=off) none: the request is authenticated only.
 * - The rules matching the method (or the method-override's) and the decoded path
 *   (lib/policy/compiled/effectiveRules.ts rulesForRequest);
 * - without those of `key` scope for a caller with no `key` counter (an anonymous caller);
 * - their `header`/`query` attributes read (lib/dataplane/admission/requestAttributes.ts): the
 *   answer names the first enforce rule whose attribute is missing (onMissing: refuse) or
 *   repeated, and the request is refused before any decision;
 * - for forward auth, without concurrency rules: Sluice never sees that request end, so it could
 *   never give the slot back.
 * No allocation beyond the matched array in the common case (no attribute, nothing left out).
 */
import type { LimiterRule } from "../../limiter/types";
import { rulesForRequest, type CompiledRule } from "../../policy/compiled/effectiveRules";
import { resolveAttributes, type AttributeSource, type ResolvedAttributes } from "./requestAttributes";

/** What rule matching reads of a request (lib/dataplane/admission/admit.ts AdmitRequest). */
export interface MatchedRequest extends AttributeSource {
  method: string;
  path: string;
  overrideMethod?: string;
  forwardAuth?: boolean;
}

const NONE: LimiterRule[] = [];

export function matchRules(
  own: CompiledRule[],
  request: MatchedRequest,
  hasKeyCounter: boolean,
  enforce: boolean,
): ResolvedAttributes {
  let matched = enforce ? rulesForRequest(own, request.method, request.path, request.overrideMethod) : NONE;
  if (!hasKeyCounter && matched.some((rule) => rule.scope === "key"))
    matched = matched.filter((rule) => rule.scope !== "key");
  const resolved = resolveAttributes(matched, request);
  if (resolved.ok && request.forwardAuth && resolved.rules.some((rule) => rule.algorithm === "concurrency"))
    resolved.rules = resolved.rules.filter((rule) => rule.algorithm !== "concurrency");
  return resolved;
}
