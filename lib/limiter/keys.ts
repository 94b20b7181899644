/**
 * The one place Redis keys are built.
 *
 * `<prefix>{<tenantId>}:<algorithm code>:<rule ref>:<subject>`
 * - the `{tenantId}` hash tag puts every key of one decision in one Redis Cluster slot;
 * - the algorithm code keeps a rule's old state from being misread when its algorithm changes;
 * - the subject part depends on the rule's scope. Long identifiers are hashed so keys stay small.
 * Throws when the subject lacks what a rule's scope needs: that is a caller bug, not a limit.
 */
import { createHash } from "node:crypto";
import { ALGORITHM_DEFS } from "./algorithms/registry";
import type { LimiterRule, Subject } from "./types";

const TENANT_ID = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_RAW_PART = 64;

function compact(part: string): string {
  if (part.length <= MAX_RAW_PART) return part;
  return "#" + createHash("sha256").update(part).digest("base64url").slice(0, 22);
}

export function subjectPart(rule: Pick<LimiterRule, "scope" | "name">, subject: Subject): string {
  const need = (value: string | undefined, what: string): string => {
    if (!value) throw new Error(`rule "${rule.name}" has scope ${rule.scope} but the subject has no ${what}`);
    return compact(value);
  };
  switch (rule.scope) {
    case "key":
      return "k:" + need(subject.keyId, "keyId");
    case "tenant":
      return "t";
    case "ip":
      return "ip:" + need(subject.ip, "ip");
    case "identifier":
      return "id:" + need(subject.identifier, "identifier");
  }
}

/** The hash-tagged key prefix of one tenant; every key of the tenant starts with it. */
export function tenantKeyPrefix(prefix: string, tenantId: string): string {
  if (!TENANT_ID.test(tenantId)) throw new Error(`invalid tenant id for a Redis key: ${JSON.stringify(tenantId)}`);
  return `${prefix}{${tenantId}}:`;
}

export function counterKey(prefix: string, rule: LimiterRule, subject: Subject): string {
  return `${tenantKeyPrefix(prefix, subject.tenantId)}${ALGORITHM_DEFS[rule.algorithm].code}:${rule.ref}:${subjectPart(rule, subject)}`;
}
