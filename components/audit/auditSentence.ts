/**
 * One audit entry as a sentence with names ("Rules of demo: per-key: 120 → 1,200 per min"), and
 * what reverting it would do ("removes all 7 rules of demo"). Pure: names come in as arguments
 * (tenant names from the tenant list, key names from the audit API's `targetName` or the event's
 * own before/after); anything unknown falls back to the action and the target id.
 */
import { describeRuleChanges, type ComparableRule } from "@/components/rules/ruleChanges";
import { baseAction } from "@/lib/policy/audit/auditAction";
import type { AuditEvent } from "./auditTypes";

export interface Names {
  tenant: string | null;
}

const asRules = (value: unknown): ComparableRule[] | null =>
  Array.isArray(value) ? (value as ComparableRule[]) : null;

/** An upstream's request signing, as audited (never the secret): "", " (signed requests)", or with a new secret. */
function signing(after: unknown): string {
  const flags = (after ?? {}) as { signRequests?: unknown; secretRotated?: unknown };
  if (flags.signRequests !== true) return "";
  return flags.secretRotated === true ? " (signed requests, new signing secret)" : " (signed requests)";
}

function field(value: unknown, name: string): string | null {
  if (value && typeof value === "object" && name in value) {
    const v = (value as Record<string, unknown>)[name];
    return typeof v === "string" ? v : null;
  }
  return null;
}

function idOf(target: string): string {
  return target.slice(target.indexOf(":") + 1);
}

/** "key abusive" / "key Ab12Cd34" */
function keyWords(event: AuditEvent): string {
  const name = event.targetName ?? field(event.after, "name") ?? field(event.before, "name");
  return `key ${name ?? idOf(event.target)}`;
}

function tenantWords(event: AuditEvent, names: Names): string {
  return names.tenant ?? event.tenantId ?? "a tenant";
}

function rulesOwner(event: AuditEvent, names: Names): string {
  return event.target.startsWith("key:")
    ? `Overrides of ${keyWords(event)} (${tenantWords(event, names)})`
    : `Rules of ${tenantWords(event, names)}`;
}

function rulesSentence(event: AuditEvent, names: Names): string {
  const before = asRules(event.before) ?? [];
  const after = asRules(event.after) ?? [];
  const changes = describeRuleChanges(before, after);
  return `${rulesOwner(event, names)}: ${changes.length > 0 ? changes.join("; ") : "saved unchanged"}`;
}

const entriesOf = (view: unknown, list: "allow" | "deny"): string[] => {
  const value = view && typeof view === "object" ? (view as Record<string, unknown>)[list] : undefined;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
};

/** `allow +2 −1, deny +1`: entries added and removed per list, from `from` to `to`. */
function accessChanges(from: unknown, to: unknown): string {
  const parts: string[] = [];
  for (const list of ["allow", "deny"] as const) {
    const before = new Set(entriesOf(from, list));
    const after = new Set(entriesOf(to, list));
    const added = [...after].filter((e) => !before.has(e)).length;
    const removed = [...before].filter((e) => !after.has(e)).length;
    if (added || removed) parts.push(`${list}${added ? ` +${added}` : ""}${removed ? ` −${removed}` : ""}`);
  }
  return parts.length > 0 ? parts.join(", ") : "saved unchanged";
}

/** The change an event made, in words. */
export function auditSentence(event: AuditEvent, names: Names): string {
  const reverting = event.revertOf ? `Reverted change #${event.revertOf}. ` : "";
  const action = baseAction(event.action);
  switch (action) {
    case "rules.replace":
      return reverting + rulesSentence(event, names);
    case "key.create":
      return `Created ${keyWords(event)} in ${tenantWords(event, names)}`;
    case "key.revoke":
      return (
        reverting +
        (event.revertOf
          ? `Restored ${keyWords(event)} of ${tenantWords(event, names)}`
          : `Revoked ${keyWords(event)} of ${tenantWords(event, names)}`)
      );
    case "key.unrevoke":
      return reverting + `Restored ${keyWords(event)} of ${tenantWords(event, names)}`;
    case "key.expiry": {
      const at = field(event.after, "expiresAt");
      return (
        reverting +
        (at
          ? `Key ${keyWords(event).slice(4)} of ${tenantWords(event, names)} now expires at ${at}`
          : `Key ${keyWords(event).slice(4)} of ${tenantWords(event, names)} no longer expires`)
      );
    }
    case "tenant.create":
      return `Created tenant ${field(event.after, "name") ?? tenantWords(event, names)}`;
    case "upstream.replace":
    case "upstream.delete": {
      const url = field(event.after, "url");
      return (
        reverting +
        (url
          ? `Upstream of ${tenantWords(event, names)} set to ${url}${signing(event.after)}`
          : `Upstream of ${tenantWords(event, names)} removed`)
      );
    }
    case "access.replace":
      return reverting + `Access lists of ${tenantWords(event, names)}: ${accessChanges(event.before, event.after)}`;
    case "overrides.replace":
      return (
        reverting +
        `Overrides of rule ${field(event.after, "rule") ?? "?"} of ${tenantWords(event, names)}: ${overrideCount(event.after)}`
      );
    case "alerts.replace":
      return `Alerts of ${tenantWords(event, names)} sent to ${field(event.after, "webhookUrl") ?? "?"}${(event.after as { secretRotated?: unknown } | null)?.secretRotated === true ? " (new signing secret)" : ""}`;
    case "alerts.delete":
      return `Alerts of ${tenantWords(event, names)} removed`;
    case "operator.create":
      return `Added operator ${field(event.after, "email") ?? idOf(event.target)} as ${field(event.after, "role") ?? "operator"}`;
    case "operator.update":
      return `Changed operator ${field(event.after, "email") ?? idOf(event.target)}: role ${field(event.before, "role") ?? "?"} → ${field(event.after, "role") ?? "?"}`;
    case "operator.delete":
      return `Removed operator ${field(event.before, "email") ?? idOf(event.target)}`;
    default:
      return `${reverting}${event.action} on ${event.target.startsWith("key:") ? keyWords(event) : event.tenantId ? tenantWords(event, names) : event.target}`;
  }
}

/** `{ rule, overrides }` of an overrides.replace event, as "2 overrides". */
function overrideCount(view: unknown): string {
  const list = view && typeof view === "object" ? (view as { overrides?: unknown }).overrides : undefined;
  const n = Array.isArray(list) ? list.length : 0;
  return n === 1 ? "1 override" : `${n} overrides`;
}

export interface RevertEffect {
  /** What the revert will do, to show in its confirmation. */
  text: string;
  /** The revert leaves the owner without any rule at all. */
  removesEverything: boolean;
}

const plural = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n.toLocaleString("en")} ${many}`);

/**
 * What reverting `event` does to the state as it is now (`currentRules`: the owner's rules now,
 * for a rules change; undefined while they load or for other actions).
 */
export function revertEffect(event: AuditEvent, names: Names, currentRules?: ComparableRule[]): RevertEffect {
  const action = baseAction(event.action);
  if (action === "rules.replace") {
    const restored = asRules(event.before) ?? [];
    const owner = event.target.startsWith("key:")
      ? `the overrides of ${keyWords(event)}`
      : `the rules of ${tenantWords(event, names)}`;
    const current = currentRules ?? asRules(event.after) ?? [];
    if (restored.length === 0 && current.length > 0) {
      const who = event.target.startsWith("key:")
        ? `${keyWords(event)} will follow its tenant's rules`
        : `no request of ${tenantWords(event, names)} will be limited`;
      return {
        text: `This removes ${current.length === 1 ? "the only rule" : `all ${plural(current.length, "rule", "rules")}`} of ${owner.replace(/^the (rules|overrides) of /, "")}: ${who}.`,
        removesEverything: true,
      };
    }
    const changes = describeRuleChanges(current, restored);
    if (changes.length === 0)
      return {
        text: `This changes nothing: ${owner} are already as they were before this change.`,
        removesEverything: false,
      };
    const removed = current.filter((r) => !restored.some((b) => b.name === r.name)).length;
    const added = restored.filter((r) => !current.some((c) => c.name === r.name)).length;
    const counts = [
      removed ? `removes ${plural(removed, "rule", "rules")}` : null,
      added ? `adds ${plural(added, "rule", "rules")}` : null,
    ]
      .filter(Boolean)
      .join(" and ");
    return {
      text: `This ${counts ? `${counts} and ` : ""}sets ${owner} back: ${changes.join("; ")}.`,
      removesEverything: false,
    };
  }
  if (action === "key.revoke") {
    return event.revertOf
      ? { text: `This revokes ${keyWords(event)} again: its requests will be refused (401).`, removesEverything: false }
      : { text: `This restores ${keyWords(event)}: its requests will be accepted again.`, removesEverything: false };
  }
  if (action === "key.expiry") {
    const at = field(event.before, "expiresAt");
    return {
      text: at
        ? `This sets the expiry of ${keyWords(event)} back to ${at}.`
        : `This removes the expiry of ${keyWords(event)}.`,
      removesEverything: false,
    };
  }
  if (action === "upstream.replace" || action === "upstream.delete") {
    const url = field(event.before, "url");
    return {
      text: url
        ? `This sets the upstream of ${tenantWords(event, names)} back to ${url}.`
        : `This removes the upstream of ${tenantWords(event, names)}.`,
      removesEverything: false,
    };
  }
  if (action === "overrides.replace") {
    return {
      text: `This sets the overrides of rule ${field(event.before, "rule") ?? "?"} of ${tenantWords(event, names)} back (${overrideCount(event.before)}).`,
      removesEverything: false,
    };
  }
  if (action === "access.replace") {
    return {
      text: `This sets the access lists of ${tenantWords(event, names)} back (${accessChanges(event.after, event.before)}).`,
      removesEverything: false,
    };
  }
  return { text: `This undoes change #${event.id}.`, removesEverything: false };
}
