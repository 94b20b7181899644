"use client";
/**
 * Adds an operator (admins only). The form checks its input with the admin API's own schema
 * (createOperatorSchema), so both give the same messages; the server's 422 field errors and its
 * 409 (email taken) are shown the same way.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, apiSend } from "@/components/api/apiClient";
import { FormError, SubmitButton } from "@/components/forms/FormError";
import { errorMessage } from "@/components/shell/PageState";
import { TextField } from "@/components/forms/TextField";
import {
  createOperatorSchema,
  MIN_PASSWORD_LENGTH,
  ROLES,
  type CreateOperatorInput,
} from "@/lib/control/auth/operatorSchemas";
import { zodFieldErrors } from "@/components/forms/zodFieldErrors";

export function CreateOperatorForm() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<string>("viewer");
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation<{ email: string }, ApiError, CreateOperatorInput>({
    mutationFn: (input) => apiSend("POST", "/api/admin/operators", input),
    onSuccess: (operator) => {
      setCreated(operator.email);
      setEmail("");
      setPassword("");
      void queryClient.invalidateQueries({ queryKey: ["operators"] });
    },
    onError: (error) => setFieldErrors(error.fieldErrors),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setCreated(null);
    const parsed = createOperatorSchema.safeParse({ email, password, role });
    if (!parsed.success) {
      setFieldErrors(zodFieldErrors(parsed.error));
      return;
    }
    setFieldErrors({});
    create.mutate(parsed.data);
  }

  const otherError =
    create.isError && Object.keys(create.error.fieldErrors).length === 0 ? errorMessage(create.error) : fieldErrors[""];

  return (
    <section className="card" aria-labelledby="create-operator-heading">
      <h2 id="create-operator-heading">Add an operator</h2>
      <form onSubmit={submit} noValidate>
        <div className="form-row">
          <TextField
            id="operator-email"
            label="Email"
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={fieldErrors.email}
          />
          <TextField
            id="operator-password"
            label="Password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={fieldErrors.password}
            hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
          />
          <div className="field">
            <label htmlFor="operator-role">Role</label>
            <select id="operator-role" value={role} onChange={(e) => setRole(e.target.value)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
            {fieldErrors.role ? (
              <p className="field-error" id="operator-role-error">
                {fieldErrors.role}
              </p>
            ) : null}
          </div>
          <div className="form-actions">
            <SubmitButton pending={create.isPending} pendingLabel="Adding…">
              Add operator
            </SubmitButton>
          </div>
        </div>
      </form>
      <FormError message={otherError} />
      {created ? (
        <p className="notice notice-ok" role="status">
          Added {created}.
        </p>
      ) : null}
    </section>
  );
}
