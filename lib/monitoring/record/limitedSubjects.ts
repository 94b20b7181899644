/**
 * Who a rule refused: the subject its scope charges (an API key, the tenant as a whole, a client
 * IP, a caller-given identifier, a header's or query parameter's value), as the monitoring data records it for "Limited right now".
 *
 * Contract
 * - `refusedSubjects` lists, for one decision, each ENFORCE rule that refused with a real quota
 *   (Redis, the refusal cache or the local fail mode; a fail-closed 503 is an outage, not a
 *   limit), with the subject the rule counts. A scope whose part is missing (an ip rule without
 *   an ip) yields nothing.
 * - Members are JSON arrays `[tenantId, ref, scope, value]`: identifiers are any text (control
 *   characters included), so no separator would be safe; `parseLimitedMember` reads them back
 *   defensively (null for anything else).
 */
import { SCOPES as SCOPE_LIST, type Decision, type LimiterRule, type Scope } from "../../limiter/types";

export interface LimitedSubject {
  tenantId: string;
  ref: string;
  scope: Scope;
  /** The key id, ip, identifier or attribute value; "" for a tenant-scope rule. */
  value: string;
}

const QUOTA_SOURCES = new Set(["redis", "cache", "fail_local"]);
/** The longest descriptor subject recorded for "Limited right now". */
export const DESCRIPTOR_SUBJECT_SHOWN = 256;
const SCOPES = new Set<string>(SCOPE_LIST);

export interface RefusedWho {
  keyId?: string;
  ip?: string;
  identifier?: string;
  attributes?: Readonly<Record<string, string>>;
}

function valueOf(rule: LimiterRule, who: RefusedWho): string | undefined {
  switch (rule.scope) {
    case "key":
      return who.keyId;
    case "ip":
      return who.ip;
    case "identifier":
      return who.identifier;
    case "tenant":
      return "";
    case "header":
    case "query":
      return rule.attribute ? who.attributes?.[rule.attribute.id] : undefined;
    case "descriptor": {
      // Envoy's values may be long (4,096 characters, several per subject): only those a display
      // and a member can hold are recorded; a longer one is counted in the rule's series only.
      const value = rule.descriptorSlot ? who.attributes?.[rule.descriptorSlot] : undefined;
      return value !== undefined && value.length <= DESCRIPTOR_SUBJECT_SHOWN ? value : undefined;
    }
  }
}

export function refusedSubjects(tenantId: string, decision: Decision, who: RefusedWho): LimitedSubject[] {
  const out: LimitedSubject[] = [];
  for (const r of decision.results) {
    if (r.allowed || r.rule.mode !== "enforce" || !QUOTA_SOURCES.has(r.source)) continue;
    const value = valueOf(r.rule, who);
    if (value === undefined) continue;
    out.push({ tenantId, ref: r.rule.ref, scope: r.rule.scope, value });
  }
  return out;
}

export function limitedMember(subject: LimitedSubject): string {
  return JSON.stringify([subject.tenantId, subject.ref, subject.scope, subject.value]);
}

/** A member that is a JSON array of `length` strings, read back defensively: null for anything else. */
export function jsonStringsMember(member: string, length: number): string[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(member);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== length || !parsed.every((part) => typeof part === "string"))
    return null;
  return parsed as string[];
}

export function parseLimitedMember(member: string): LimitedSubject | null {
  const parsed = jsonStringsMember(member, 4);
  if (!parsed) return null;
  const [tenantId, ref, scope, value] = parsed;
  if (!SCOPES.has(scope!)) return null;
  return { tenantId: tenantId!, ref: ref!, scope: scope as Scope, value: value! };
}
