/**
 * An audit entry's heading and its changes in words (issue 31, point 8): "Rules of tenant Acme
 * replaced by alice@example.com", never an action code or an id; and a list of what changed, field
 * by field ("timeout: 1,000 ms → 2,000 ms"), for rules the change summary of the rule editor
 * (components/rules/ruleChanges.ts, which shows `burst` only for the algorithms that use it).
 * Raw JSON stays behind an expand (rawView drops such a `burst` there too). Pure.
 */
import { describeRuleChanges, type ComparableRule } from "@/components/rules/ruleChanges";
import { ALGORITHM_GUIDE } from "@/components/rules/algorithmGuide";
import { baseAction } from "@/lib/policy/audit/auditAction";
import { actorLabel, type AuditEvent } from "./auditTypes";
import type { Names } from "./auditSentence";

const str = (value: unknown, name: string): string | null => {
  const v = value && typeof value === "object" ? (value as Record<string, unknown>)[name] : undefined;
  return typeof v === "string" ? v : null;
};

function keyName(event: AuditEvent): string {
  const id = event.target.slice(event.target.indexOf(":") + 1);
  return event.targetName ?? str(event.after, "name") ?? str(event.before, "name") ?? id;
}

function tenantName(event: AuditEvent, names: Names): string {
  return `tenant ${names.tenant ?? (event.action === "tenant.create" ? str(event.after, "name") : null) ?? event.tenantId ?? "?"}`;
}

const NOUNS: Record<string, string> = {
  access: "Access lists",
  alerts: "Alerts",
  identity: "Callers",
  upstream: "Upstream",
  tier: "Tier",
  overrides: "Identifier overrides",
};

const VERBS: Record<string, string> = {
  replace: "replaced",
  delete: "removed",
  create: "created",
  update: "changed",
  revoke: "revoked",
  unrevoke: "restored",
  expiry: "expiry changed",
  tier: "tier changed",
};

/** "Rules of tenant Acme replaced by alice@example.com"; a revert says "reverted". */
export function auditHeading(event: AuditEvent, names: Names): string {
  const action = baseAction(event.action);
  const [noun = "", verb = ""] = action.split(".");
  const reverted = event.revertOf !== null;
  const done = reverted ? "reverted" : (VERBS[verb] ?? verb);
  const by = ` by ${actorLabel(event.actor)}`;
  const onKey = event.target.startsWith("key:");
  const tenant = tenantName(event, names);
  let what: string;
  if (action === "rules.replace")
    what = onKey ? `Overrides of key ${keyName(event)} (${tenant})` : `Rules of ${tenant}`;
  else if (noun === "key")
    what =
      verb === "revoke" && reverted
        ? `Revocation of key ${keyName(event)} (${tenant})`
        : `Key ${keyName(event)} of ${tenant}`;
  else if (noun === "tenant") what = `Tenant ${str(event.after, "name") ?? names.tenant ?? event.tenantId ?? "?"}`;
  else if (noun === "operator") what = `Operator ${str(event.after, "email") ?? str(event.before, "email") ?? "?"}`;
  else if (noun === "token")
    what = `Admin API token ${str(event.after, "name") ?? str(event.before, "name") ?? ""}`.trim();
  else if (action === "overrides.replace")
    what = `Identifier overrides of rule ${str(event.after, "rule") ?? "?"} (${tenant})`;
  else if (noun === "tier")
    what = `Tier ${str(event.before, "name") ?? str(event.after, "name") ?? ""} of ${tenant}`.replace("  ", " ");
  else
    what = `${NOUNS[noun] ?? noun.charAt(0).toUpperCase() + noun.slice(1)} of ${event.tenantId ? tenant : event.target}`;
  return `${what} ${done}${by}`;
}

const asRules = (value: unknown): ComparableRule[] | null =>
  Array.isArray(value) ? (value as ComparableRule[]) : null;

/** A field name in words: `timeoutMs` → "timeout (ms)", `signRequests` → "sign requests". */
export function fieldWords(name: string): string {
  const ms = name.endsWith("Ms") && name.length > 2;
  const base = (ms ? name.slice(0, -2) : name).replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return ms ? `${base} (ms)` : base;
}

/** A value in words: numbers with separators, yes/no, lists joined, "none" for nothing. */
export function valueWords(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (typeof value === "number") return value.toLocaleString("en");
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") return value === "" ? "empty" : value;
  if (Array.isArray(value)) {
    if (value.length === 0) return "none";
    return value.every((v) => typeof v !== "object" || v === null)
      ? value.map(valueWords).join(", ")
      : `${value.length} ${value.length === 1 ? "entry" : "entries"}`;
  }
  return JSON.stringify(value);
}

/** Top-level fields, and one level of nested objects as `outer inner`. */
function flatten(value: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!value || typeof value !== "object" || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (v && typeof v === "object" && !Array.isArray(v))
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>))
        out.set(`${fieldWords(k)} ${fieldWords(k2)}`, v2);
    else out.set(fieldWords(k), v);
  }
  return out;
}

/** What the entry changed, one line per field (per rule for rule lists); empty when nothing differs. */
export function auditFieldChanges(event: AuditEvent): string[] {
  const before = asRules(event.before);
  const after = asRules(event.after);
  if (baseAction(event.action) === "rules.replace" || (before && after))
    return describeRuleChanges(before ?? [], after ?? []);
  const was = flatten(event.before);
  const now = flatten(event.after);
  const lines: string[] = [];
  for (const name of [...new Set([...was.keys(), ...now.keys()])]) {
    const a = was.has(name) ? valueWords(was.get(name)) : undefined;
    const b = now.has(name) ? valueWords(now.get(name)) : undefined;
    if (a === b) continue;
    if (a === undefined) lines.push(`${name}: ${b}`);
    else if (b === undefined) lines.push(`${name}: ${a} (removed)`);
    else lines.push(`${name}: ${a} → ${b}`);
  }
  return lines;
}

/** A state as the raw JSON view shows it: rules without a `burst` their algorithm does not use. */
export function rawView(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((rule) => {
    if (!rule || typeof rule !== "object" || !("burst" in rule)) return rule;
    const algorithm = (rule as { algorithm?: keyof typeof ALGORITHM_GUIDE }).algorithm ?? "sliding_window";
    if (ALGORITHM_GUIDE[algorithm]?.usesBurst !== false) return rule;
    const copy = { ...(rule as Record<string, unknown>) };
    delete copy.burst;
    return copy;
  });
}
