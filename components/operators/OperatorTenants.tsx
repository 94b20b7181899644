"use client";
/**
 * The tenants an operator is limited to (lib/control/admin/tenantScope.ts): "every tenant" or
 * their names. An admin edits the limit in a disclosure of checkboxes, one per tenant; Save sends
 * the whole list (none checked: every tenant). The server refuses limiting the last admin without
 * a limit (409), shown under the list.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiSend, type ApiError, errorMessage } from "@/components/api/apiClient";
import { useTenants } from "@/components/api/tenantQueries";
import type { OperatorView } from "@/lib/control/auth/operatorStore";

function limitText(ids: string[], names: Map<string, string>): string {
  if (ids.length === 0) return "every tenant";
  return ids.map((id) => names.get(id) ?? id).join(", ");
}

export function OperatorTenants({ operator, canChange }: { operator: OperatorView; canChange: boolean }) {
  const tenants = useTenants();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<string[]>(operator.tenantIds);
  const save = useMutation<OperatorView, ApiError, string[]>({
    mutationFn: (tenantIds) =>
      apiSend("PATCH", `/api/admin/operators/${encodeURIComponent(operator.id)}`, { tenantIds }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ["operators"] }),
  });
  const names = new Map((tenants.data ?? []).map((t) => [t.id, t.name]));
  const current = limitText(operator.tenantIds, names);
  if (!canChange) return <span className={operator.tenantIds.length === 0 ? "muted" : undefined}>{current}</span>;

  return (
    <details className="operator-tenants">
      <summary aria-label={`Tenants of ${operator.email}: ${current}`}>{current}</summary>
      <fieldset>
        <legend className="visually-hidden">Limit {operator.email} to these tenants</legend>
        {(tenants.data ?? []).map((t) => (
          <label key={t.id}>
            <input
              type="checkbox"
              checked={chosen.includes(t.id)}
              onChange={(e) =>
                setChosen((ids) => (e.target.checked ? [...ids, t.id] : ids.filter((id) => id !== t.id)))
              }
            />
            {t.name}
          </label>
        ))}
        <p className="muted">None checked: every tenant.</p>
        <button type="button" disabled={save.isPending} onClick={() => save.mutate(chosen)}>
          {save.isPending ? "Saving…" : "Save tenants"}
        </button>
        {save.error ? (
          <p className="field-error" role="alert">
            {errorMessage(save.error)}
          </p>
        ) : null}
      </fieldset>
    </details>
  );
}
