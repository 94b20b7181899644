"use client";
/** Creates an API key for a tenant, then shows it once (CreatedKeyNotice). Names use the API's own schema. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, apiSend } from "@/components/api/apiClient";
import { errorMessage } from "@/components/shell/PageState";
import formStyles from "@/components/tenants/tenants.module.css";
import { createKeySchema } from "@/lib/admin/schemas";
import { CreatedKeyNotice } from "./CreatedKeyNotice";
import { tenantKeysPath } from "./keyQueries";
import type { CreatedKey } from "./keyTypes";

export function CreateKeyForm({ tenantId }: { tenantId: string }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedKey | null>(null);

  const create = useMutation({
    mutationFn: (input: { name: string }) => apiSend<CreatedKey>("POST", tenantKeysPath(tenantId), input),
    onSuccess: (key) => {
      setCreated(key);
      setName("");
      void queryClient.invalidateQueries({ queryKey: ["tenant", tenantId] });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.fieldErrors.name) setNameError(error.fieldErrors.name);
      else setFormError(errorMessage(error));
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const parsed = createKeySchema.safeParse({ name });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? "name is invalid");
      return;
    }
    setNameError(null);
    setCreated(null);
    create.mutate(parsed.data);
  }

  return (
    <>
      <form onSubmit={submit} noValidate aria-label="Create API key">
        {formError ? (
          <p className="form-error" role="alert">
            {formError}
          </p>
        ) : null}
        <div className="form-row">
          <div className={`field ${formStyles.nameField}`}>
            <label htmlFor="key-name">Key name</label>
            <input
              id="key-name"
              value={name}
              maxLength={200}
              autoComplete="off"
              onChange={(e) => {
                setName(e.target.value);
                setNameError(null);
              }}
              aria-invalid={nameError ? true : undefined}
              aria-describedby={nameError ? "key-name-error" : undefined}
            />
            {nameError ? (
              <p id="key-name-error" className="field-error">
                {nameError}
              </p>
            ) : null}
          </div>
          <div className="form-actions">
            <button type="submit" className="button-primary" disabled={create.isPending}>
              {create.isPending ? "Creating…" : "Create key"}
            </button>
          </div>
        </div>
      </form>
      {created ? <CreatedKeyNotice created={created} onDone={() => setCreated(null)} /> : null}
    </>
  );
}
