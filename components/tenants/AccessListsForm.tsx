"use client";
/**
 * Replaces a tenant's access lists (admins only): two text areas, one entry per line. Checked with
 * the admin API's own schema (lib/policy/access/accessListSchema.ts) before sending, so both give the same
 * messages; each invalid entry is shown under its list with its line number, whether the browser or
 * the server (a 422) found it; anything else is shown above the form.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, apiSend, errorMessage } from "@/components/api/apiClient";
import { zodFieldErrors } from "@/components/forms/zodFieldErrors";
import { FormError, SubmitButton } from "@/components/forms/FormError";
import { accessListsSchema, type AccessLists } from "@/lib/policy/access/accessListSchema";
import { MAX_ACCESS_ENTRIES } from "@/lib/common/fieldLimits";
import { listErrors, listToText, parseListText } from "./accessListText";
import { tenantPath } from "@/components/api/tenantQueries";

const LISTS = [
  { list: "allow", label: "Allow", hint: "Passes every rule without being charged and without rate-limit headers." },
  { list: "deny", label: "Deny", hint: "Refused with 403 before any rule, charged nothing. Deny wins over allow." },
] as const;

/** `onSaved`: told after a save; the card shows it, since the stored lists change and the form is rebuilt from them. */
export function AccessListsForm({
  tenantId,
  current,
  onSaved,
}: {
  tenantId: string;
  current: AccessLists;
  onSaved: (saved: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [text, setText] = useState({ allow: listToText(current.allow), deny: listToText(current.deny) });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const parsed = { allow: parseListText(text.allow), deny: parseListText(text.deny) };

  const save = useMutation({
    mutationFn: (input: { allow: string[]; deny: string[] }) =>
      apiSend<AccessLists>("PUT", `${tenantPath(tenantId)}/access`, input),
    onSuccess: (lists) => {
      onSaved(true);
      queryClient.setQueryData(["tenant", tenantId, "access"], lists);
    },
    onError: (error) => {
      if (
        error instanceof ApiError &&
        Object.keys(error.fieldErrors).some((f) => f.startsWith("allow") || f.startsWith("deny"))
      )
        setErrors(error.fieldErrors);
      else setFormError(errorMessage(error));
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    onSaved(false);
    const input = { allow: parsed.allow.entries, deny: parsed.deny.entries };
    const checked = accessListsSchema.safeParse(input);
    if (!checked.success) {
      setErrors(zodFieldErrors(checked.error));
      return;
    }
    setErrors({});
    save.mutate(input);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Change access lists">
      <FormError message={formError ?? errors[""] ?? null} />
      <div className="grid-2">
        {LISTS.map(({ list, label, hint }) => {
          const messages = listErrors(errors, list, parsed[list]);
          const id = `access-${list}`;
          return (
            <div className="field" key={list}>
              <label htmlFor={id}>{label}</label>
              <textarea
                id={id}
                rows={6}
                spellCheck={false}
                autoComplete="off"
                value={text[list]}
                placeholder={list === "allow" ? "10.0.0.0/8\n2001:db8::/32" : "203.0.113.7\nkey:AbCd1234"}
                aria-invalid={messages.length > 0 ? true : undefined}
                aria-describedby={messages.length > 0 ? `${id}-error` : `${id}-hint`}
                onChange={(e) => {
                  setText((old) => ({ ...old, [list]: e.target.value }));
                  onSaved(false);
                  setErrors((old) =>
                    Object.fromEntries(
                      Object.entries(old).filter(([field]) => field !== list && !field.startsWith(`${list}.`)),
                    ),
                  );
                }}
              />
              {messages.length > 0 ? (
                <ul id={`${id}-error`} className="field-error">
                  {messages.map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              ) : (
                <p id={`${id}-hint`} className="hint">
                  {hint} {parsed[list].entries.length.toLocaleString("en-US")} of{" "}
                  {MAX_ACCESS_ENTRIES.toLocaleString("en-US")} entries.
                </p>
              )}
            </div>
          );
        })}
      </div>
      <div className="form-actions">
        <SubmitButton pending={save.isPending} pendingLabel="Saving…">
          Save access lists
        </SubmitButton>
      </div>
    </form>
  );
}
