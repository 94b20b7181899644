"use client";
/**
 * `/keys/[keyId]`: the key, its tier (editable), its traffic and refusals by rule over time with
 * change markers and the rate now (CallerHistoryChart), its remaining quota, its effective rules (tenant rules, its tier's and
 * its overrides told apart, each with "Override" for admins: EffectiveRulesCard), the
 * overrides editor, its remaining quota and its recent decisions, all live. A revoked key is
 * marked as such and offers no editing.
 */
import Link from "next/link";
import { useIsAdmin } from "@/components/api/useSession";
import { RuleEditor } from "@/components/rules/RuleEditor";
import { ErrorState, Loading } from "@/components/shell/PageState";
import { formatDateTime } from "@/components/format/dateFormat";
import { CallerHistoryChart } from "@/components/charts/CallerHistoryChart";
import { EffectiveRulesCard } from "./EffectiveRulesCard";
import { KeyQuotaCard } from "./KeyQuotaCard";
import { KeyGrantsCard } from "./KeyGrantsCard";
import { KeyExpiryForm } from "./KeyExpiryForm";
import { KeyTierForm } from "./KeyTierForm";
import { ExpiredBadge, hasExpired, RevokedBadge } from "./KeysCard";
import { useKey } from "./keyQueries";
import { useTenant } from "@/components/api/tenantQueries";
import { RecentDecisionsCard } from "./RecentDecisionsCard";
import { RevokeKeyButton } from "./RevokeKeyButton";
import styles from "./keys.module.css";

export default function KeyPage({ keyId }: { keyId: string }) {
  const isAdmin = useIsAdmin();
  const key = useKey(keyId);
  // Whether the key's tenant has a gateway upstream (the overrides editor warns about /api/v1 paths).
  const tenant = useTenant(key.data?.tenantId ?? "", key.data !== undefined);

  if (key.isPending) return <Loading label="Loading key…" />;
  if (!key.data) {
    return (
      <>
        <p>
          <Link href="/tenants">← Tenants</Link>
        </p>
        <ErrorState error={key.error} />
      </>
    );
  }

  const k = key.data;
  const revoked = k.revokedAt !== null;
  const expired = !revoked && hasExpired(k.expiresAt);
  return (
    <>
      <p className="hint">
        <Link href={`/tenants/${encodeURIComponent(k.tenantId)}`} className="name">
          ← {k.tenantName}
        </Link>
      </p>
      <div className="page-header">
        <h1 className="name">
          {k.name} {revoked ? <RevokedBadge at={k.revokedAt!} /> : null}
          {expired ? <ExpiredBadge at={k.expiresAt!} /> : null}
        </h1>
        {isAdmin && !revoked ? <RevokeKeyButton keyId={k.id} keyName={k.name} tenantId={k.tenantId} /> : null}
      </div>
      {key.error ? <ErrorState error={key.error} /> : null}
      {revoked ? (
        <p className="notice notice-warn" role="status">
          This key was revoked on {formatDateTime(k.revokedAt!)}. Every request with it is refused (401); its rules can
          no longer be changed.
        </p>
      ) : null}
      {expired ? (
        <p className="notice notice-warn" role="status">
          This key expired on {formatDateTime(k.expiresAt!)}. Every request with it is refused (401) until its expiry is
          moved later or removed.
        </p>
      ) : null}
      <div className="stack">
        <section className="card" aria-labelledby="key-facts-heading">
          <h2 id="key-facts-heading">Key</h2>
          <dl className={styles.keyFacts}>
            <dt>Id</dt>
            <dd>
              <code>{k.id}</code>
            </dd>
            <dt>Prefix</dt>
            <dd>
              <code>{k.prefix}</code>
            </dd>
            <dt>Tenant</dt>
            <dd className="name">{k.tenantName}</dd>
            <dt>Created</dt>
            <dd>{formatDateTime(k.createdAt)}</dd>
            <dt>Last used</dt>
            <dd>{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : "never"}</dd>
            <dt>Expires</dt>
            <dd data-testid="key-expires">{k.expiresAt ? formatDateTime(k.expiresAt) : "never"}</dd>
            <dt>Tier</dt>
            <dd data-testid="key-tier">{k.tier ? <code>{k.tier}</code> : "none"}</dd>
          </dl>
          {isAdmin && !revoked ? (
            <>
              <KeyExpiryForm key={k.expiresAt ?? "never"} keyId={k.id} tenantId={k.tenantId} expiresAt={k.expiresAt} />
              <KeyTierForm key={k.tier ?? ""} keyId={k.id} tenantId={k.tenantId} tier={k.tier} />
            </>
          ) : null}
        </section>
        <CallerHistoryChart tenantId={k.tenantId} caller={k.id} />
        {revoked ? null : <KeyQuotaCard keyId={k.id} reset={isAdmin ? { keyName: k.name } : undefined} />}
        {revoked ? null : <KeyGrantsCard keyId={k.id} canEdit={isAdmin} />}
        <EffectiveRulesCard details={k} canEdit={isAdmin && !revoked} />
        <RuleEditor
          owner={{ kind: "key", keyId: k.id }}
          heading="Key overrides"
          description="Rules of this key alone. An override named like a tenant rule replaces it for this key; scope key or ip only."
          emptyText="No overrides: this key follows its tenant's rules."
          readOnlyReason={revoked ? "A revoked key's overrides cannot be edited." : undefined}
          gatewayUpstream={Boolean(tenant.data?.upstream)}
        />
        <RecentDecisionsCard keyId={k.id} />
      </div>
    </>
  );
}
