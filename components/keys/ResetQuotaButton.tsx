"use client";
/**
 * "Reset quota" on the key page: asks first (ConfirmButton), then DELETE .../counters, which gives
 * the key its full quota again on every instance within a second; the quota view is re-read at once.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend, errorMessage } from "@/components/api/apiClient";
import { ConfirmButton } from "@/components/forms/ConfirmButton";
import { FormError } from "@/components/forms/FormError";
import { keyPath } from "./keyQueries";

export function ResetQuotaButton({ keyId, keyName }: { keyId: string; keyName: string }) {
  const queryClient = useQueryClient();
  const reset = useMutation({
    mutationFn: () => apiSend<void>("DELETE", `${keyPath(keyId)}/counters`),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["key", keyId] }),
  });

  return (
    <div className="form-row">
      <ConfirmButton
        label="Reset quota"
        question={`Reset every counter of ${keyName} (full quota again on every instance)?`}
        confirmLabel="Reset quota"
        onConfirm={() => reset.mutateAsync().catch(() => undefined)}
      />
      {reset.isSuccess ? (
        <p className="notice" role="status">
          Quota reset: the key has its full quota again on every instance.
        </p>
      ) : null}
      <FormError message={reset.error ? errorMessage(reset.error) : null} />
    </div>
  );
}
