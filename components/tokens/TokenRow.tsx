"use client";
/** One API token: its scope, expiry and last use, and Revoke (with confirmation). */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { apiSend, type ApiError, errorMessage } from "@/components/api/apiClient";
import { formatDateTime } from "@/components/format/dateFormat";
import { ConfirmButton } from "@/components/forms/ConfirmButton";
import type { TokenView } from "@/lib/control/tokens/tokenStore";

export function TokenRow({ token }: { token: TokenView }) {
  const queryClient = useQueryClient();
  const revoke = useMutation<void, ApiError>({
    mutationFn: () => apiSend("DELETE", `/api/admin/tokens/${encodeURIComponent(token.id)}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["tokens"] }),
  });

  return (
    <tr>
      <td className="name">{token.name}</td>
      <td>
        <span className={`badge badge-${token.role}`}>{token.role}</span>
      </td>
      <td>
        {token.tenantId ? (
          <Link href={`/tenants/${encodeURIComponent(token.tenantId)}`}>{token.tenantId}</Link>
        ) : (
          <span className="muted">every tenant</span>
        )}
      </td>
      <td className="muted">{token.expiresAt ? formatDateTime(token.expiresAt) : "never"}</td>
      <td className="muted">{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : "never"}</td>
      <td className="muted">{token.createdBy}</td>
      <td>
        <ConfirmButton
          label="Revoke"
          question={`Revoke ${token.name}?`}
          confirmLabel="Yes, revoke"
          onConfirm={() => revoke.mutateAsync().catch(() => undefined)}
        />
        {revoke.error ? (
          <p className="field-error" role="alert">
            {errorMessage(revoke.error)}
          </p>
        ) : null}
      </td>
    </tr>
  );
}
