/**
 * Links to a key's, a tenant's, a caller's and a rule's page, as the tables name them. Ids go into
 * the URL only when they look like ids (ID_PATTERN: base62 of the id length), so a pseudo-tenant
 * such as `-anon` or an unexpected value never becomes a link; names are always React text.
 */
import Link from "next/link";
import type { ReactNode } from "react";
import { ID_PATTERN as ID } from "@/lib/common/apiKeyFormat";

export function KeyLink({ keyId, keyName }: { keyId: string; keyName: string | null }) {
  const label = keyName ?? keyId;
  return (
    <>
      {ID.test(keyId) ? (
        <Link href={`/keys/${keyId}`} className="name">
          {label}
        </Link>
      ) : (
        <span className="name">{label}</span>
      )}
      {keyName === null ? <span className="muted"> (revoked)</span> : null}
    </>
  );
}

/** A JWT subject's or anonymous address's caller page (components/callers/CallerPage.tsx), in a real tenant. */
export function CallerLink({ tenantId, member, children }: { tenantId: string; member: string; children: ReactNode }) {
  if (!ID.test(tenantId)) return <>{children}</>;
  return <Link href={callerHref(tenantId, member)}>{children}</Link>;
}

export function TenantLink({ tenantId, tenantName }: { tenantId: string; tenantName: string | null }) {
  const label = tenantName ?? tenantId;
  return ID.test(tenantId) ? (
    <Link href={`/tenants/${tenantId}`} className="name">
      {label}
    </Link>
  ) : (
    <span className="name">{label}</span>
  );
}

/**
 * A rule of a tenant, as the monitoring tables show it: its name (or "deleted rule (ref)"),
 * linking to the tenant's page with the traffic narrowed to that rule.
 */
export function RuleLink({ tenantId, rule }: { tenantId: string; rule: { ref: string; name: string | null } }) {
  if (rule.name === null) return <code className="name">deleted rule ({rule.ref})</code>;
  if (!ID.test(tenantId)) return <code className="name">{rule.name}</code>;
  return (
    <Link href={ruleTrafficHref(tenantId, rule.name)} className="name">
      <code>{rule.name}</code>
    </Link>
  );
}

/**
 * A caller's page (`/tenants/<tenantId>/callers/<member>`): the member percent-encoded (`#`, `:`,
 * `@`, `|`); components/callers/callerPath.ts reads it back.
 */
export function callerHref(tenantId: string, member: string): string {
  return `/tenants/${encodeURIComponent(tenantId)}/callers/${encodeURIComponent(member)}`;
}

/** The tenant's page with its traffic chart narrowed to one rule. */
export function ruleTrafficHref(tenantId: string, ruleName: string): string {
  return `/tenants/${tenantId}?rule=${encodeURIComponent(ruleName)}#traffic`;
}

/** A count of refusals: marked in the refusal colour when there are any (red means refused, only). */
export function RefusedCount({ refused }: { refused: number }) {
  return refused > 0 ? <span className="refused-badge">{refused.toLocaleString("en")}</span> : <>0</>;
}
