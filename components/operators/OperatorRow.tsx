"use client";
/** One operator; for admins, its role can be changed and it can be deleted (with confirmation). */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiSend, type ApiError, errorMessage } from "@/components/api/apiClient";
import { formatDateTime } from "@/components/format/dateFormat";
import { ConfirmButton } from "@/components/forms/ConfirmButton";
import { ROLES, type Role } from "@/lib/control/auth/operatorSchemas";
import type { OperatorView } from "@/lib/control/auth/operatorStore";
import { OperatorTenants } from "./OperatorTenants";

export function OperatorRow({
  operator,
  canChange,
  isSelf,
}: {
  operator: OperatorView;
  canChange: boolean;
  isSelf: boolean;
}) {
  const queryClient = useQueryClient();
  const path = `/api/admin/operators/${encodeURIComponent(operator.id)}`;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["operators"] });
  const changeRole = useMutation<OperatorView, ApiError, Role>({
    mutationFn: (role) => apiSend("PATCH", path, { role }),
    onSettled: refresh,
  });
  const remove = useMutation<void, ApiError>({ mutationFn: () => apiSend("DELETE", path), onSettled: refresh });
  const failure = changeRole.error ?? remove.error;

  return (
    <tr>
      <td className="name">
        {operator.email}
        {isSelf ? <span className="muted"> (you)</span> : null}
      </td>
      <td>
        {canChange ? (
          <select
            aria-label={`Role of ${operator.email}`}
            value={changeRole.isPending && changeRole.variables ? changeRole.variables : operator.role}
            disabled={changeRole.isPending}
            onChange={(e) => {
              remove.reset();
              changeRole.mutate(e.target.value as Role);
            }}
          >
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        ) : (
          <span className={`badge badge-${operator.role}`}>{operator.role}</span>
        )}
        {failure ? (
          <p className="field-error" role="alert">
            {errorMessage(failure)}
          </p>
        ) : null}
      </td>
      <td>
        <OperatorTenants operator={operator} canChange={canChange} />
      </td>
      <td className="muted">{formatDateTime(operator.createdAt)}</td>
      {canChange ? (
        <td>
          <ConfirmButton
            label="Delete"
            question={`Delete ${operator.email}?`}
            confirmLabel="Yes, delete"
            onConfirm={() => {
              changeRole.reset();
              return remove.mutateAsync().catch(() => undefined);
            }}
          />
        </td>
      ) : null}
    </tr>
  );
}
