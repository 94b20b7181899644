"use client";
/**
 * Creates an API token (admins only), then shows its secret once (CreatedKeyNotice). The form
 * checks its input with the admin API's own schema (createTokenSchema, through CheckedForm); the
 * server's 422 field errors are shown on their fields and its 409 (name taken) above the form.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiSend } from "@/components/api/apiClient";
import { CheckedForm, useCheckedForm } from "@/components/forms/CheckedForm";
import { SelectField } from "@/components/forms/SelectField";
import { TextField } from "@/components/forms/TextField";
import { CreatedKeyNotice } from "@/components/keys/CreatedKeyNotice";
import { useTenants } from "@/components/api/tenantQueries";
import { ROLES } from "@/lib/control/auth/operatorSchemas";
import { createTokenSchema } from "@/lib/control/tokens/tokenSchemas";

interface TokenInput {
  name: string;
  role: string;
  tenantId?: string;
  expiresAt?: string;
}

const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: r }));

export function CreateTokenForm() {
  const queryClient = useQueryClient();
  const tenants = useTenants();
  const [name, setName] = useState("");
  const [role, setRole] = useState<string>("viewer");
  const [tenantId, setTenantId] = useState("");
  const [expires, setExpires] = useState("");
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const form = useCheckedForm({
    schema: createTokenSchema(),
    // The input as typed: the schema turns absent fields into nulls the server adds itself.
    send: (_checked, input: TokenInput) => apiSend<{ name: string; token: string }>("POST", "/api/admin/tokens", input),
    onSent: (token) => {
      setCreated({ name: token.name, key: token.token });
      setName("");
      setExpires("");
      void queryClient.invalidateQueries({ queryKey: ["tokens"] });
    },
  });
  const errors = form.fieldErrors;

  function submit() {
    setCreated(null);
    // datetime-local has no zone: it is the browser's local time.
    form.submit({
      name,
      role,
      ...(tenantId ? { tenantId } : {}),
      ...(expires ? { expiresAt: new Date(expires).toISOString() } : {}),
    });
  }

  return (
    <section className="card" aria-labelledby="create-token-heading">
      <h2 id="create-token-heading">Create an API token</h2>
      <CheckedForm form={form} onSubmit={submit} submitLabel="Create token" pendingLabel="Creating…">
        <TextField
          id="token-name"
          label="Name"
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
          hint="Letters, digits, '.', '_' or '-'. The audit log shows it."
        />
        <SelectField id="token-role" label="Role" value={role} onChange={setRole} options={ROLE_OPTIONS} />
        <SelectField
          id="token-tenant"
          label="Tenant"
          value={tenantId}
          onChange={setTenantId}
          options={[
            { value: "", label: "Every tenant" },
            ...(tenants.data ?? []).map((t) => ({ value: t.id, label: t.name })),
          ]}
          error={errors.tenantId}
        />
        <TextField
          id="token-expires"
          label="Expires"
          type="datetime-local"
          value={expires}
          onChange={(e) => setExpires(e.target.value)}
          error={errors.expiresAt}
          hint="Empty: never."
        />
      </CheckedForm>
      {created ? <CreatedKeyNotice noun="token" created={created} onDone={() => setCreated(null)} /> : null}
    </section>
  );
}
