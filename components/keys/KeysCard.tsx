"use client";
/** A tenant's API keys: name, prefix, use, expiry, status; admins create keys and revoke them here. */
import { KeyLink } from "@/components/tables/entityLinks";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import { formatDateTime } from "@/components/format/dateFormat";
import { CreateKeyForm } from "./CreateKeyForm";
import { useTenantKeys } from "./keyQueries";
import { RevokeKeyButton } from "./RevokeKeyButton";
import styles from "./keys.module.css";
import { ScrollRegion } from "@/components/tables/ScrollRegion";

export function RevokedBadge({ at }: { at: string }) {
  return (
    <span className={`badge ${styles.revoked}`} title={`Revoked ${formatDateTime(at)}`}>
      revoked
    </span>
  );
}

export function ExpiredBadge({ at }: { at: string }) {
  return (
    <span className={`badge ${styles.revoked}`} title={`Expired ${formatDateTime(at)}`}>
      expired
    </span>
  );
}

/** Whether a key's expiry has passed by this browser's clock (the list is re-read every 2 s). */
export const hasExpired = (expiresAt: string | null): boolean =>
  expiresAt !== null && Date.parse(expiresAt) <= Date.now();

function KeyStatus({ revokedAt, expiresAt }: { revokedAt: string | null; expiresAt: string | null }) {
  if (revokedAt) return <RevokedBadge at={revokedAt} />;
  if (expiresAt && hasExpired(expiresAt)) return <ExpiredBadge at={expiresAt} />;
  return <span className="badge">active</span>;
}

export function KeysCard({ tenantId, canEdit }: { tenantId: string; canEdit: boolean }) {
  const keys = useTenantKeys(tenantId);

  return (
    <section className="card" aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      {canEdit ? <CreateKeyForm tenantId={tenantId} /> : null}
      {keys.isPending ? <Loading label="Loading keys…" /> : null}
      {keys.error ? <ErrorState error={keys.error} /> : null}
      {keys.data && keys.data.length === 0 ? <Empty>This tenant has no keys yet.</Empty> : null}
      {keys.data && keys.data.length > 0 ? (
        <ScrollRegion label="API keys">
          <table aria-label="API keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Tier</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">Status</th>
                {canEdit ? (
                  <th scope="col">
                    <span className={styles.visuallyHidden}>Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <tr key={key.id} data-key-id={key.id}>
                  <td>
                    <KeyLink keyId={key.id} keyName={key.name} />
                  </td>
                  <td>
                    <code>{key.prefix}</code>
                  </td>
                  <td>{key.tier ? <code>{key.tier}</code> : <span className="muted">none</span>}</td>
                  <td>{formatDateTime(key.createdAt)}</td>
                  <td>{key.lastUsedAt ? formatDateTime(key.lastUsedAt) : <span className="muted">never</span>}</td>
                  <td>{key.expiresAt ? formatDateTime(key.expiresAt) : <span className="muted">never</span>}</td>
                  <td>
                    <KeyStatus revokedAt={key.revokedAt} expiresAt={key.expiresAt} />
                  </td>
                  {canEdit ? (
                    <td>
                      {key.revokedAt ? null : <RevokeKeyButton keyId={key.id} keyName={key.name} tenantId={tenantId} />}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      ) : null}
    </section>
  );
}
