"use client";
/**
 * Adds an operator (admins only). The form checks its input with the admin API's own schema
 * (createOperatorSchema, through CheckedForm), so both give the same messages; the server's 422
 * field errors are shown on their fields and its 409 (email taken) above the form.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiSend } from "@/components/api/apiClient";
import { CheckedForm, useCheckedForm } from "@/components/forms/CheckedForm";
import { SelectField } from "@/components/forms/SelectField";
import { TextField } from "@/components/forms/TextField";
import { createOperatorSchema, MIN_PASSWORD_LENGTH, ROLES } from "@/lib/control/auth/operatorSchemas";

const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: r }));

export function CreateOperatorForm() {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [role, setRole] = useState<string>("viewer");
  const [created, setCreated] = useState<string | null>(null);
  const form = useCheckedForm({
    schema: createOperatorSchema,
    send: (input) => apiSend<{ email: string }>("POST", "/api/admin/operators", input),
    onSent: (operator) => {
      setCreated(operator.email);
      setEmail("");
      setPassword("");
      void queryClient.invalidateQueries({ queryKey: ["operators"] });
    },
  });
  const errors = form.fieldErrors;

  return (
    <section className="card" aria-labelledby="create-operator-heading">
      <h2 id="create-operator-heading">Add an operator</h2>
      <CheckedForm
        form={form}
        onSubmit={() => {
          setCreated(null);
          form.submit({ email, password, role });
        }}
        submitLabel="Add operator"
        pendingLabel="Adding…"
      >
        <TextField
          id="operator-email"
          label="Email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={errors.email}
        />
        <TextField
          id="operator-password"
          label="Password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={errors.password}
          hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        />
        <SelectField
          id="operator-role"
          label="Role"
          value={role}
          onChange={setRole}
          options={ROLE_OPTIONS}
          error={errors.role}
        />
      </CheckedForm>
      {created ? (
        <p className="notice notice-ok" role="status">
          Added {created}.
        </p>
      ) : null}
    </section>
  );
}
