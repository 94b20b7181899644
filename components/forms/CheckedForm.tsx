"use client";
/**
 * The scaffold of a form that sends one thing to the admin API (an operator, an API token, a
 * grant): the input is checked with the API's own zod schema first, so both give the same
 * messages; what the server says about a field (a 422's field errors) is shown on that field, and
 * anything else (a 409, a 403, a network failure, a message about no field of the input) above
 * the form.
 *
 * `useCheckedForm` keeps that state; `submit(input)` checks and sends, and `send` gets both the
 * checked value and the input as typed (a schema may turn the input into what the server stores).
 * `CheckedForm` draws the form around the caller's fields: the message, the row, the submit button.
 */
import { useMutation } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import type { z } from "zod";
import { ApiError, errorMessage } from "@/components/api/apiClient";
import { FormError, SubmitButton } from "./FormError";
import { zodFieldErrors } from "./zodFieldErrors";

export interface CheckedFormState<In> {
  submit: (input: In) => void;
  /** Forgets a field's message (e.g. as soon as the field is edited). */
  clearFieldError: (field: string) => void;
  /** The message per field ("" for the form as a whole). */
  fieldErrors: Record<string, string>;
  /** What no field owns, shown above the form. */
  formError: string | null;
  pending: boolean;
}

export function useCheckedForm<Out, T, In = unknown>({
  schema,
  send,
  onSent,
  conflictField,
}: {
  /** The API's schema; the input is what the fields hold, which it may still refuse. */
  schema: z.ZodType<Out>;
  send: (checked: Out, input: In) => Promise<T>;
  onSent: (sent: T) => void;
  /** The field a 409 (conflict) is about, e.g. a name that is taken: shown there, not above. */
  conflictField?: string;
}): CheckedFormState<In> {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const mutation = useMutation<T, unknown, { checked: Out; input: In }>({
    mutationFn: ({ checked, input }) => send(checked, input),
    onSuccess: onSent,
    onError: (error, { input }) => {
      if (error instanceof ApiError && conflictField && error.status === 409)
        setFieldErrors({ ...error.fieldErrors, [conflictField]: error.fieldErrors[conflictField] ?? error.detail });
      else if (error instanceof ApiError && Object.keys(error.fieldErrors).some((field) => isFieldOf(input, field)))
        setFieldErrors(error.fieldErrors);
      else setFormError(errorMessage(error));
    },
  });

  function submit(input: In) {
    setFormError(null);
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      setFieldErrors(zodFieldErrors(parsed.error));
      return;
    }
    setFieldErrors({});
    mutation.mutate({ checked: parsed.data, input });
  }

  function clearFieldError(field: string) {
    setFieldErrors((old) => {
      if (!(field in old)) return old;
      const next = { ...old };
      delete next[field];
      return next;
    });
  }

  return {
    submit,
    clearFieldError,
    fieldErrors,
    formError: formError ?? fieldErrors[""] ?? null,
    pending: mutation.isPending,
  };
}

export function CheckedForm({
  form,
  onSubmit,
  label,
  submitLabel,
  pendingLabel,
  children,
  after,
}: {
  form: Pick<CheckedFormState<never>, "formError" | "pending">;
  /** Called at submit (the browser's own submit is prevented): gather the input, `form.submit` it. */
  onSubmit: () => void;
  /** The form's accessible name, where the card's heading does not give it one. */
  label?: string;
  submitLabel: string;
  pendingLabel: string;
  /** The fields. */
  children: ReactNode;
  /** Shown inside the form, under the row of fields (e.g. what was just created). */
  after?: ReactNode;
}) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
      noValidate
      aria-label={label}
    >
      <FormError message={form.formError} />
      <div className="form-row">
        {children}
        <div className="form-actions">
          <SubmitButton pending={form.pending} pendingLabel={pendingLabel}>
            {submitLabel}
          </SubmitButton>
        </div>
      </div>
      {after}
    </form>
  );
}

/** Whether the form's input has the field a server message names (else no field would show it). */
function isFieldOf(input: unknown, field: string): boolean {
  return typeof input === "object" && input !== null && field in input;
}
