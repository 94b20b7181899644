"use client";
/**
 * Revoke with a confirmation dialog (a modal <dialog>: focus stays inside, Escape cancels, Cancel
 * has the focus first so a stray Enter revokes nothing). A revoke cannot be undone.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { apiSend, errorMessage } from "@/components/api/apiClient";
import { FormError } from "@/components/forms/FormError";
import { keyPath } from "./keyQueries";
import type { KeyDetails } from "./keyTypes";
import styles from "./keys.module.css";

export function RevokeKeyButton({ keyId, keyName, tenantId }: { keyId: string; keyName: string; tenantId: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const bodyId = useId();

  const revoke = useMutation({
    mutationFn: () => apiSend<void>("DELETE", keyPath(keyId)),
    onSuccess: () => {
      setOpen(false);
      // Mark the key revoked at once and drop its quota query: a revoked key has no quota (409),
      // and asking for it again before the key itself is re-read would only show an error.
      queryClient.setQueryData<KeyDetails>(["key", keyId], (old) =>
        old ? { ...old, revokedAt: new Date().toISOString() } : old,
      );
      queryClient.removeQueries({ queryKey: ["key", keyId, "quota"] });
      void queryClient.invalidateQueries({ queryKey: ["tenant", tenantId] });
      void queryClient.invalidateQueries({ queryKey: ["key", keyId], exact: true });
    },
  });

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <>
      {/* Quiet on every row: the danger is in the dialog, where the revoke happens. */}
      <button
        type="button"
        className="button-quiet"
        onClick={() => {
          revoke.reset();
          setOpen(true);
        }}
        aria-label={`Revoke key ${keyName}`}
      >
        Revoke
      </button>
      <dialog
        ref={dialogRef}
        className={styles.dialog}
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        onClose={() => setOpen(false)}
      >
        <h2 id={titleId}>
          Revoke key <span className="name">{keyName}</span>?
        </h2>
        <p id={bodyId}>
          Every request with this key will be refused (401) on every instance within a second. A revoked key cannot be
          restored.
        </p>
        <FormError message={revoke.error ? errorMessage(revoke.error) : null} />
        <div className={styles.dialogActions}>
          <button type="button" autoFocus onClick={() => setOpen(false)} disabled={revoke.isPending}>
            Cancel
          </button>
          <button type="button" className="button-danger" onClick={() => revoke.mutate()} disabled={revoke.isPending}>
            {revoke.isPending ? "Revoking…" : "Revoke key"}
          </button>
        </div>
      </dialog>
    </>
  );
}
