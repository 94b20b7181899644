"use client";
/**
 * Adds an operator (admins only). The form checks its input with the admin API's own schema
 * (createOperatorSchema), so both give the same messages; the server's 422 field errors and its
 * 409 (email taken) are shown the same way.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, apiSend } from "@/components/api/apiClient";
import { errorMessage } from "@/components/shell/PageState";
import { createOperatorSchema, MIN_PASSWORD_LENGTH, ROLES, type CreateOperatorInput } from "@/lib/auth/operatorSchemas";
import { zodFieldErrors } from "./zodFieldErrors";

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

  const fieldError = (name: string) =>
    fieldErrors[name] ? (
      <p className="field-error" id={`operator-${name}-error`}>
        {fieldErrors[name]}
      </p>
    ) : null;
  const otherError = create.isError && Object.keys(create.error.fieldErrors).length === 0 ? errorMessage(create.error) : fieldErrors[""];

  return (
    <section className="card" aria-labelledby="create-operator-heading">
      <h2 id="create-operator-heading">Add an operator</h2>
      <form onSubmit={submit} noValidate>
        <div className="form-row">
          <div className="field">
            <label htmlFor="operator-email">Email</label>
            <input
              id="operator-email"
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={fieldErrors.email ? true : undefined}
              aria-describedby={fieldErrors.email ? "operator-email-error" : undefined}
            />
            {fieldError("email")}
          </div>
          <div className="field">
            <label htmlFor="operator-password">Password</label>
            <input
              id="operator-password"
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={fieldErrors.password ? true : undefined}
              aria-describedby={fieldErrors.password ? "operator-password-error" : "operator-password-hint"}
            />
            {fieldError("password") ?? (
              <p className="hint" id="operator-password-hint">
                At least {MIN_PASSWORD_LENGTH} characters.
              </p>
            )}
          </div>
          <div className="field">
            <label htmlFor="operator-role">Role</label>
            <select id="operator-role" value={role} onChange={(e) => setRole(e.target.value)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
            {fieldError("role")}
          </div>
          <div className="form-actions">
            <button type="submit" className="button-primary" disabled={create.isPending}>
              {create.isPending ? "Adding…" : "Add operator"}
            </button>
          </div>
        </div>
      </form>
      {otherError ? (
        <p className="form-error" role="alert">
          {otherError}
        </p>
      ) : null}
      {created ? (
        <p className="notice notice-ok" role="status">
          Added {created}.
        </p>
      ) : null}
    </section>
  );
}
