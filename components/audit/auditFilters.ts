/**
 * The audit log's filters as they live in the page URL (`/audit?tenantId=&actor=&action=&from=&to=`)
 * and as the audit API takes them. Dates are days (YYYY-MM-DD, the operator's own calendar);
 * `to` is inclusive on the page and exclusive in the API, so it is sent as the next day's start.
 */
import { ID_PATTERN } from "@/lib/common/apiKeyFormat";
import { AUDIT_ACTION_PATTERN, AUDIT_ACTOR_MAX } from "@/lib/common/fieldLimits";

export interface AuditFilters {
  tenantId?: string;
  actor?: string;
  action?: string;
  from?: string;
  to?: string;
}

export const FILTER_NAMES = ["tenantId", "actor", "action", "from", "to"] as const;

const VALID: Record<(typeof FILTER_NAMES)[number], RegExp> = {
  tenantId: ID_PATTERN,
  actor: new RegExp(`^.{1,${AUDIT_ACTOR_MAX}}$`, "s"),
  action: AUDIT_ACTION_PATTERN,
  from: /^\d{4}-\d{2}-\d{2}$/,
  to: /^\d{4}-\d{2}-\d{2}$/,
};

export function filtersFrom(params: URLSearchParams): AuditFilters {
  const out: AuditFilters = {};
  for (const name of FILTER_NAMES) {
    const value = params.get(name);
    // Only well-formed values reach the API; anything else is no filter.
    if (value && VALID[name].test(value)) out[name] = value;
  }
  return out;
}

/** Local midnight of a day, as the API's ISO time. */
function dayStart(day: string, plusDays = 0): string {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y!, m! - 1, d! + plusDays).toISOString();
}

export function apiFilters(filters: AuditFilters): Record<string, string | undefined> {
  return {
    tenantId: filters.tenantId,
    actor: filters.actor,
    action: filters.action,
    from: filters.from ? dayStart(filters.from) : undefined,
    to: filters.to ? dayStart(filters.to, 1) : undefined,
  };
}

export function pageQuery(filters: AuditFilters): string {
  const params = new URLSearchParams();
  for (const name of FILTER_NAMES) if (filters[name]) params.set(name, filters[name]!);
  const qs = params.toString();
  return qs ? `/audit?${qs}` : "/audit";
}

/** The actions the log knows how to name, for the action filter. */
export const ACTION_CHOICES: { value: string; label: string }[] = [
  { value: "rules.", label: "Rule changes (and reverts)" },
  { value: "key.", label: "Key changes" },
  { value: "key.create", label: "Key created" },
  { value: "key.revoke", label: "Key revoked" },
  { value: "tenant.create", label: "Tenant created" },
  { value: "upstream.", label: "Upstream changes" },
  { value: "alerts.", label: "Alert changes" },
  { value: "operator.", label: "Operator changes" },
];
