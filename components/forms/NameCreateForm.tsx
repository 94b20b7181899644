"use client";
/**
 * A one-field form that creates something by its name (a tenant, an API key), on the checked-form
 * scaffold (CheckedForm.tsx): the name is checked with the admin API's own schema before sending,
 * so both give the same message; what the server says about the name (a 422 naming `name`, and
 * with `conflictOnName` a 409: the name is taken) is shown on the field, anything else above the
 * form. What to show once created is the caller's: `onCreated` gets the answer, and `children` are
 * shown inside the form, under the field.
 */
import { useState, type ReactNode } from "react";
import type { z } from "zod";
import { DISPLAY_NAME_MAX } from "@/lib/common/fieldLimits";
import { CheckedForm, useCheckedForm } from "./CheckedForm";
import styles from "./NameCreateForm.module.css";
import { TextField } from "./TextField";

interface NameCreateFormProps<T> {
  /** The form's accessible name. */
  formLabel: string;
  /** The name input's id and label. */
  inputId: string;
  label: string;
  submitLabel: string;
  schema: z.ZodType<{ name: string }>;
  send: (input: { name: string }) => Promise<T>;
  onCreated: (created: T) => void;
  /** Called at every submit, before the name is checked. */
  onSubmit?: () => void;
  /** Called when a name that passed the check is about to be sent. */
  onSend?: () => void;
  conflictOnName?: boolean;
  children?: ReactNode;
}

export function NameCreateForm<T>({
  formLabel,
  inputId,
  label,
  submitLabel,
  schema,
  send,
  onCreated,
  onSubmit,
  onSend,
  conflictOnName = false,
  children,
}: NameCreateFormProps<T>) {
  const [name, setName] = useState("");
  const form = useCheckedForm({
    schema,
    send: (checked) => {
      onSend?.();
      return send(checked);
    },
    onSent: (created) => {
      setName("");
      onCreated(created);
    },
    conflictField: conflictOnName ? "name" : undefined,
  });

  return (
    <CheckedForm
      form={form}
      onSubmit={() => {
        onSubmit?.();
        form.submit({ name });
      }}
      label={formLabel}
      submitLabel={submitLabel}
      pendingLabel="Creating…"
      after={children}
    >
      <TextField
        id={inputId}
        label={label}
        fieldClassName={styles.nameField}
        value={name}
        maxLength={DISPLAY_NAME_MAX}
        autoComplete="off"
        onChange={(e) => {
          setName(e.target.value);
          form.clearFieldError("name");
        }}
        error={form.fieldErrors.name}
      />
    </CheckedForm>
  );
}
