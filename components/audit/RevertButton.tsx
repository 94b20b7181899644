"use client";
/**
 * Revert, with a confirmation (ConfirmButton) that says what the revert will do to the state as it
 * is now: asking reads the owner's current rules (for a rules change) and says "This removes all 7
 * rules of demo: … [Yes, revert] [Cancel]"; a revert that leaves a tenant without any rule is
 * said so plainly and styled as a warning.
 */
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiGet, type ApiError } from "@/components/api/apiClient";
import type { ComparableRule } from "@/components/rules/ruleChanges";
import { ConfirmButton } from "@/components/forms/ConfirmButton";
import { baseAction } from "@/lib/policy/audit/auditAction";
import { revertEffect, type Names } from "./auditSentence";
import type { AuditEvent } from "./auditTypes";

function rulesPathOf(event: AuditEvent): string | null {
  if (baseAction(event.action) !== "rules.replace") return null;
  const [kind, id] = [
    event.target.slice(0, event.target.indexOf(":")),
    event.target.slice(event.target.indexOf(":") + 1),
  ];
  if (kind === "tenant") return `/api/admin/tenants/${encodeURIComponent(id)}/rules`;
  if (kind === "key") return `/api/admin/keys/${encodeURIComponent(id)}/rules`;
  return null;
}

export function RevertButton({
  event,
  names,
  onConfirm,
}: {
  event: AuditEvent;
  names: Names;
  onConfirm: () => Promise<unknown>;
}) {
  const [asking, setAsking] = useState(false);
  const path = rulesPathOf(event);
  const current = useQuery<ComparableRule[], ApiError>({
    queryKey: ["audit-revert", path],
    queryFn: () => apiGet<ComparableRule[]>(path!),
    enabled: asking && path !== null,
    staleTime: 0,
  });

  const loading = path !== null && current.isPending;
  const effect = loading ? null : revertEffect(event, names, current.data);
  const question = effect ? `${effect.text} Revert change #${event.id}?` : "Reading the current rules…";

  return (
    <ConfirmButton
      label="Revert"
      question={question}
      confirmLabel="Yes, revert"
      onConfirm={onConfirm}
      onAskingChange={setAsking}
      pending={loading}
      warning={effect?.removesEverything ?? false}
      questionTestId="revert-effect"
    />
  );
}
