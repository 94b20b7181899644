"use client";
/**
 * Revert, with a confirmation that says what the revert will do to the state as it is now: the
 * first click reads the owner's current rules (for a rules change) and asks "This removes all 7
 * rules of demo: … [Yes, revert] [Cancel]"; a revert that leaves a tenant without any rule is
 * said so plainly and styled as a warning. Focus goes to Cancel.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { apiGet, type ApiError } from "@/components/api/apiClient";
import type { ComparableRule } from "@/components/rules/ruleChanges";
import { baseAction } from "@/lib/audit/auditAction";
import { revertEffect, type Names } from "./auditSentence";
import type { AuditEvent } from "./auditTypes";

function rulesPathOf(event: AuditEvent): string | null {
  if (baseAction(event.action) !== "rules.replace") return null;
  const [kind, id] = [event.target.slice(0, event.target.indexOf(":")), event.target.slice(event.target.indexOf(":") + 1)];
  if (kind === "tenant") return `/api/admin/tenants/${encodeURIComponent(id)}/rules`;
  if (kind === "key") return `/api/admin/keys/${encodeURIComponent(id)}/rules`;
  return null;
}

export function RevertButton({ event, names, onConfirm }: { event: AuditEvent; names: Names; onConfirm: () => Promise<unknown> }) {
  const [asking, setAsking] = useState(false);
  const [running, setRunning] = useState(false);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const path = rulesPathOf(event);
  const current = useQuery<ComparableRule[], ApiError>({ queryKey: ["audit-revert", path], queryFn: () => apiGet<ComparableRule[]>(path!), enabled: asking && path !== null, staleTime: 0 });

  useEffect(() => {
    if (asking) cancelRef.current?.focus();
  }, [asking]);

  if (!asking) {
    return (
      <button type="button" onClick={() => setAsking(true)}>
        Revert
      </button>
    );
  }

  const loading = path !== null && current.isPending;
  const effect = loading ? null : revertEffect(event, names, current.data);
  const question = effect ? `${effect.text} Revert change #${event.id}?` : "Reading the current rules…";

  async function confirm() {
    setRunning(true);
    try {
      await onConfirm();
    } finally {
      setRunning(false);
      setAsking(false);
    }
  }

  return (
    <span className={`confirm ${effect?.removesEverything ? "confirm-warning" : ""}`} role="group" aria-label={question}>
      <span data-testid="revert-effect">{question}</span>
      <button type="button" className="button-danger" onClick={confirm} disabled={running || loading}>
        {running ? "Working…" : "Yes, revert"}
      </button>
      <button type="button" ref={cancelRef} onClick={() => setAsking(false)} disabled={running}>
        Cancel
      </button>
    </span>
  );
}
