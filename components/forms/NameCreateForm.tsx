"use client";
/**
 * A one-field form that creates something by its name (a tenant, an API key). The name is checked
 * with the admin API's own schema before sending, so both give the same message; what the server
 * says about the name (a 422 naming `name`, and with `conflictOnName` a 409: the name is taken) is
 * shown on the field, anything else above the form. What to show once created is the caller's:
 * `onCreated` gets the answer, and `children` are shown inside the form, under the field.
 */
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import type { z } from "zod";
import { ApiError } from "@/components/api/apiClient";
import { DISPLAY_NAME_MAX } from "@/lib/common/fieldLimits";
import { FormError, SubmitButton } from "./FormError";
import { errorMessage } from "@/components/shell/PageState";
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
  const [nameError, setNameError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const create = useMutation({
    mutationFn: send,
    onSuccess: (created) => {
      setName("");
      onCreated(created);
    },
    onError: (error) => {
      if (error instanceof ApiError && ((conflictOnName && error.status === 409) || error.fieldErrors.name))
        setNameError(error.fieldErrors.name ?? error.detail);
      else setFormError(errorMessage(error));
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    onSubmit?.();
    const parsed = schema.safeParse({ name });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message ?? "name is invalid");
      return;
    }
    setNameError(null);
    onSend?.();
    create.mutate(parsed.data);
  }

  return (
    <form onSubmit={submit} noValidate aria-label={formLabel}>
      <FormError message={formError} />
      <div className="form-row">
        <TextField
          id={inputId}
          label={label}
          fieldClassName={styles.nameField}
          value={name}
          maxLength={DISPLAY_NAME_MAX}
          autoComplete="off"
          onChange={(e) => {
            setName(e.target.value);
            setNameError(null);
          }}
          error={nameError}
        />
        <div className="form-actions">
          <SubmitButton pending={create.isPending} pendingLabel="Creating…">
            {submitLabel}
          </SubmitButton>
        </div>
      </div>
      {children}
    </form>
  );
}
