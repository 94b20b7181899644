"use client";
/**
 * Creates a tenant. The name is checked with the admin API's own schema before sending; the
 * server's answers (409 duplicate, 422) are shown on the field, inline.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { ApiError, apiSend } from "@/components/api/apiClient";
import { errorMessage } from "@/components/shell/PageState";
import formStyles from "@/components/tenants/tenants.module.css";
import { createTenantSchema } from "@/lib/admin/schemas";
import { TENANTS_QUERY_KEY, type Tenant } from "./tenantQueries";

export function CreateTenantForm() {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<Tenant | null>(null);

  const create = useMutation({
    mutationFn: (input: { name: string }) => apiSend<Tenant>("POST", "/api/admin/tenants", input),
    onSuccess: (tenant) => {
      setCreated(tenant);
      setName("");
      void queryClient.invalidateQueries({ queryKey: TENANTS_QUERY_KEY });
    },
    onError: (error) => {
      if (error instanceof ApiError && (error.status === 409 || error.fieldErrors.name)) setNameError(error.fieldErrors.name ?? error.detail);
      else setFormError(errorMessage(error));
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    setCreated(null);
    const parsed = createTenantSchema.safeParse({ name });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? "name is invalid");
      return;
    }
    setNameError(null);
    create.mutate(parsed.data);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Create tenant">
      {formError ? (
        <p className="form-error" role="alert">
          {formError}
        </p>
      ) : null}
      <div className="form-row">
        <div className={`field ${formStyles.nameField}`}>
          <label htmlFor="tenant-name">Tenant name</label>
          <input
            id="tenant-name"
            value={name}
            maxLength={200}
            autoComplete="off"
            onChange={(e) => {
              setName(e.target.value);
              setNameError(null);
            }}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? "tenant-name-error" : undefined}
          />
          {nameError ? (
            <p id="tenant-name-error" className="field-error">
              {nameError}
            </p>
          ) : null}
        </div>
        <div className="form-actions">
          <button type="submit" className="button-primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create tenant"}
          </button>
        </div>
      </div>
      {created ? (
        <p className="notice notice-ok" role="status">
          Created tenant{" "}
          <Link href={`/tenants/${created.id}`} className="name">
            {created.name}
          </Link>
          . Open it to add keys and rules.
        </p>
      ) : null}
    </form>
  );
}
