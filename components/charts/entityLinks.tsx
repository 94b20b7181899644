/**
 * Links to a key's and a tenant's page. Ids go into the URL only when they look like ids (8
 * base62 characters), so a pseudo-tenant such as `-anon` or an unexpected value never becomes a
 * link; names are always React text. `KeyHeaders` and `KeyCells` are the first columns of a table
 * of keys: the key, then its tenant unless the table is of one tenant's keys.
 */
import Link from "next/link";

const ID = /^[0-9A-Za-z]{8}$/;

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

interface KeyRow {
  keyId: string;
  keyName: string | null;
  tenantId: string;
  tenantName: string | null;
}

export function KeyHeaders({ withTenant }: { withTenant: boolean }) {
  return (
    <>
      <th scope="col">Key</th>
      {withTenant ? <th scope="col">Tenant</th> : null}
    </>
  );
}

export function KeyCells({ row, withTenant }: { row: KeyRow; withTenant: boolean }) {
  return (
    <>
      <td>
        <KeyLink keyId={row.keyId} keyName={row.keyName} />
      </td>
      {withTenant ? (
        <td>
          <TenantLink tenantId={row.tenantId} tenantName={row.tenantName} />
        </td>
      ) : null}
    </>
  );
}
