"use client";
/** `/tenants`: every tenant, newest last, and (for admins) the form that creates one. */
import Link from "next/link";
import { useIsAdmin } from "@/components/api/useSession";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import { CreateTenantForm } from "./CreateTenantForm";
import { formatDateTime } from "@/components/format/dateFormat";
import { useTenants } from "./tenantQueries";

export default function TenantsPage() {
  const isAdmin = useIsAdmin();
  const tenants = useTenants();

  return (
    <>
      <div className="page-header">
        <h1>Tenants</h1>
      </div>
      <div className="stack">
        {isAdmin ? (
          <section className="card" aria-labelledby="create-tenant-heading">
            <h2 id="create-tenant-heading">New tenant</h2>
            <CreateTenantForm />
          </section>
        ) : null}
        <section className="card" aria-labelledby="tenant-list-heading">
          <h2 id="tenant-list-heading">All tenants</h2>
          {tenants.isPending ? <Loading label="Loading tenants…" /> : null}
          {tenants.error ? <ErrorState error={tenants.error} /> : null}
          {tenants.data && tenants.data.length === 0 ? (
            <Empty>No tenants yet.{isAdmin ? " Create the first one above." : ""}</Empty>
          ) : null}
          {tenants.data && tenants.data.length > 0 ? (
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Id</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {tenants.data.map((tenant) => (
                    <tr key={tenant.id}>
                      <td>
                        <Link href={`/tenants/${tenant.id}`} className="name">
                          {tenant.name}
                        </Link>
                      </td>
                      <td>
                        <code>{tenant.id}</code>
                      </td>
                      <td>{formatDateTime(tenant.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : null}
        </section>
      </div>
    </>
  );
}
