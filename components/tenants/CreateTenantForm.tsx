"use client";
/**
 * Creates a tenant. The name is checked with the admin API's own schema before sending; the
 * server's answers (409 duplicate, 422) are shown on the field, inline. Once created, a notice
 * links to the new tenant.
 */
import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { apiSend } from "@/components/api/apiClient";
import { NameCreateForm } from "@/components/forms/NameCreateForm";
import { createTenantSchema } from "@/lib/control/admin/schemas";
import { TENANTS_QUERY_KEY, type Tenant } from "@/components/api/tenantQueries";

export function CreateTenantForm() {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<Tenant | null>(null);

  return (
    <NameCreateForm
      formLabel="Create tenant"
      inputId="tenant-name"
      label="Tenant name"
      submitLabel="Create tenant"
      schema={createTenantSchema}
      send={(input) => apiSend<Tenant>("POST", "/api/admin/tenants", input)}
      conflictOnName
      onSubmit={() => setCreated(null)}
      onCreated={(tenant) => {
        setCreated(tenant);
        void queryClient.invalidateQueries({ queryKey: TENANTS_QUERY_KEY });
      }}
    >
      {created ? (
        <p className="notice notice-ok" role="status">
          Created tenant{" "}
          <Link href={`/tenants/${created.id}`} className="name">
            {created.name}
          </Link>
          . Open it to add keys and rules.
        </p>
      ) : null}
    </NameCreateForm>
  );
}
