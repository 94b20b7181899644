"use client";
/**
 * Creates an API token (admins only), then shows its secret once (CreatedKeyNotice). The form
 * checks its input with the admin API's own schema (createTokenSchema); the server's 422 field
 * errors and its 409 (name taken) are shown the same way.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, apiSend } from "@/components/api/apiClient";
import { CreatedKeyNotice } from "@/components/keys/CreatedKeyNotice";
import { zodFieldErrors } from "@/components/forms/zodFieldErrors";
import { FormError, SubmitButton } from "@/components/forms/FormError";
import { errorMessage } from "@/components/shell/PageState";
import { TextField } from "@/components/forms/TextField";
import { useTenants } from "@/components/tenants/tenantQueries";
import { ROLES } from "@/lib/control/auth/operatorSchemas";
import { createTokenSchema } from "@/lib/control/tokens/tokenSchemas";

interface TokenInput {
  name: string;
  role: string;
  tenantId?: string;
  expiresAt?: string;
}

export function CreateTokenForm() {
  const queryClient = useQueryClient();
  const tenants = useTenants();
  const [name, setName] = useState("");
  const [role, setRole] = useState<string>("viewer");
  const [tenantId, setTenantId] = useState("");
  const [expires, setExpires] = useState("");
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const create = useMutation<{ name: string; token: string }, ApiError, TokenInput>({
    mutationFn: (input) => apiSend("POST", "/api/admin/tokens", input),
    onSuccess: (token) => {
      setCreated({ name: token.name, key: token.token });
      setName("");
      setExpires("");
      void queryClient.invalidateQueries({ queryKey: ["tokens"] });
    },
    onError: (error) => setFieldErrors(error.fieldErrors),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setCreated(null);
    // datetime-local has no zone: it is the browser's local time.
    const input: TokenInput = {
      name,
      role,
      ...(tenantId ? { tenantId } : {}),
      ...(expires ? { expiresAt: new Date(expires).toISOString() } : {}),
    };
    const parsed = createTokenSchema().safeParse(input);
    if (!parsed.success) {
      setFieldErrors(zodFieldErrors(parsed.error));
      return;
    }
    setFieldErrors({});
    create.mutate(input);
  }

  const otherError =
    create.isError && Object.keys(create.error.fieldErrors).length === 0 ? errorMessage(create.error) : fieldErrors[""];

  return (
    <section className="card" aria-labelledby="create-token-heading">
      <h2 id="create-token-heading">Create an API token</h2>
      <form onSubmit={submit} noValidate>
        <div className="form-row">
          <TextField
            id="token-name"
            label="Name"
            autoComplete="off"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={fieldErrors.name}
            hint="Letters, digits, '.', '_' or '-'. The audit log shows it."
          />
          <div className="field">
            <label htmlFor="token-role">Role</label>
            <select id="token-role" value={role} onChange={(e) => setRole(e.target.value)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="token-tenant">Tenant</label>
            <select id="token-tenant" value={tenantId} onChange={(e) => setTenantId(e.target.value)}>
              <option value="">Every tenant</option>
              {(tenants.data ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            {fieldErrors.tenantId ? <p className="field-error">{fieldErrors.tenantId}</p> : null}
          </div>
          <TextField
            id="token-expires"
            label="Expires"
            type="datetime-local"
            value={expires}
            onChange={(e) => setExpires(e.target.value)}
            error={fieldErrors.expiresAt}
            hint="Empty: never."
          />
          <div className="form-actions">
            <SubmitButton pending={create.isPending} pendingLabel="Creating…">
              Create token
            </SubmitButton>
          </div>
        </div>
      </form>
      <FormError message={otherError} />
      {created ? <CreatedKeyNotice noun="token" created={created} onDone={() => setCreated(null)} /> : null}
    </section>
  );
}
