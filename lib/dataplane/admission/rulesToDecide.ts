/**
 * Admission's middle step (lib/dataplane/admission/admit.ts): from a known caller to the rules its
 * request meets, or to the outcome when there is nothing to decide.
 *
 * Contract
 * - The tenant's access list (lib/policy/access) first, by the client IP rules limit by (whole: not
 *   per /64) and the caller's key: deny is a 403 (`access_denied`, charging nothing); allow admits
 *   without a limiter call and without rate-limit headers (`access_allowed`). `key:` entries never
 *   match a JWT or anonymous caller.
 * - Then the caller's rules (AccessCache.rulesFor: the compiled arrays as cached, precedence
 *   tenant < tier < key compiled at load) that the request meets (matchRules.ts): a
 *   `header`/`query` rule whose attribute is missing (`onMissing: refuse`) or repeated with
 *   different values is a 400 naming it (`attribute_missing`/`attribute_repeated`, nothing
 *   charged). None: admitted without a decision (`unmatched`).
 * - Else `ToDecide`: the rules, and the subject they count (a JWT caller counts `key` rules per
 *   subject: caller.ts counterIdOf), for decideOnce.ts.
 * Synchronous and pure (reads the access cache); allocates only its answer.
 */
import type { Subject } from "../../limiter/types";
import type { AccessCache } from "../../policy/compiled/accessCache";
import { counterIdOf, monitoringIdOf } from "./caller";
import type { ToDecide } from "./decideOnce";
import type { MatchedRequest } from "./matchRules";
import { matchRules } from "./matchRules";
import type { Admission, Client } from "./outcome";
import { accessDeniedReply, badAttributeReply } from "./refusalReplies";

export function rulesToDecide(
  access: AccessCache,
  client: Client,
  request: MatchedRequest,
  enforce: boolean,
): Admission | ToDecide {
  const { tenantId, key, ip } = client;
  const recordedId = monitoringIdOf(client);
  const listed = access.tenant(tenantId)?.accessLists?.verdict(ip, key?.id) ?? null;
  if (listed === "deny") return { kind: "refused", outcome: "access_denied", reply: accessDeniedReply() };
  if (listed === "allow")
    return { kind: "admitted", outcome: "access_allowed", client, headers: {}, decision: null, recordedId };

  const callerId = counterIdOf(client);
  const matched = matchRules(access.rulesFor(tenantId, client), request, callerId !== undefined, enforce);
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
  return { kind: "decide", client, rules, subject, recordedId, attributes };
}
