"use client";
/**
 * One change: headed in words ("Rules of tenant Acme replaced by alice@example.com": auditHeading.ts),
 * a sentence with names saying what changed, the other fields' changes in words, when, the tenant
 * it belongs to, the raw JSON before and after side by side behind an expand, and for admins a
 * Revert button (with confirmation) on the kinds of change that can be reverted, unless a revert
 * in force already undid it (then it is marked "reverted"). Its outcome, or the server's refusal
 * (409: e.g. the key was revoked again since), is shown under the entry.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { apiSend, type ApiError, errorMessage } from "@/components/api/apiClient";
import { formatDateTime } from "@/components/format/dateFormat";
import { TenantLink } from "@/components/tables/entityLinks";
import { ID_PATTERN as ID } from "@/lib/common/apiKeyFormat";
import { auditFieldChanges, auditHeading, rawView } from "./auditHeading";
import { auditSentence } from "./auditSentence";
import type { AuditEvent } from "./auditTypes";
import { RevertButton } from "./RevertButton";
import { JsonDiff } from "./JsonDiff";

function Target({ target }: { target: string }) {
  const [kind, id = ""] = target.split(/:(.*)/s);
  if (kind === "key" && ID.test(id)) return <Link href={`/keys/${id}`}>{target}</Link>;
  if (kind === "tenant" && ID.test(id)) return <Link href={`/tenants/${id}`}>{target}</Link>;
  return <span className="name">{target}</span>;
}

export function AuditEntry({
  event,
  tenantName,
  canRevert,
}: {
  event: AuditEvent;
  tenantName: string | null;
  canRevert: boolean;
}) {
  const queryClient = useQueryClient();
  const revert = useMutation<AuditEvent, ApiError>({
    mutationFn: () => apiSend<AuditEvent>("POST", `/api/admin/audit/${encodeURIComponent(event.id)}/revert`),
    // A revert changes rules, keys or operators: every view may be stale now.
    onSuccess: () => queryClient.invalidateQueries(),
  });
  // The entry's accessible name: "<heading in words> #<id>".
  const headingId = `audit-${event.id}`;
  const names = { tenant: tenantName };
  const isRules = event.action.startsWith("rules.replace");
  const fieldChanges = isRules ? [] : auditFieldChanges(event);
  const reverted = Boolean(event.revertedBy) || revert.isSuccess;

  return (
    <article className="card audit-entry" aria-labelledby={`${headingId} ${headingId}-id`}>
      <h2 id={headingId} className="audit-heading name">
        {auditHeading(event, names)}
      </h2>
      <div className="audit-meta">
        <span>
          <span className="muted">on </span>
          <Target target={event.target} />
        </span>
        {event.tenantId ? (
          <span>
            <span className="muted">tenant </span>
            <TenantLink tenantId={event.tenantId} tenantName={tenantName} />
          </span>
        ) : null}
        <time dateTime={event.at} className="muted">
          {formatDateTime(event.at)}
        </time>
        <span className="muted" id={`${headingId}-id`}>
          #{event.id}
        </span>
        {event.revertOf ? <span className="badge">reverts #{event.revertOf}</span> : null}
        {reverted ? (
          <span className="badge badge-reverted" data-testid="audit-reverted">
            reverted{event.revertedBy ? ` by #${event.revertedBy}` : ""}
          </span>
        ) : null}
        {canRevert && event.revertible && !reverted ? (
          <span className="audit-revert">
            <RevertButton
              event={event}
              names={{ tenant: tenantName }}
              onConfirm={() => revert.mutateAsync().catch(() => undefined)}
            />
          </span>
        ) : null}
      </div>
      <p className="audit-sentence name">{auditSentence(event, names)}</p>
      {fieldChanges.length > 0 ? (
        <ul className="audit-changes" aria-label="What changed">
          {fieldChanges.map((line) => (
            <li key={line} className="name">
              {line}
            </li>
          ))}
        </ul>
      ) : null}
      {revert.isSuccess && !revert.isPending ? (
        <p className="notice notice-ok" role="status">
          Reverted. The revert is recorded as change #{revert.data.id}.
        </p>
      ) : null}
      {revert.isError ? (
        <p className="form-error" role="alert">
          Could not revert: {errorMessage(revert.error)}
        </p>
      ) : null}
      {event.before !== null || event.after !== null ? (
        <details className="audit-details">
          <summary>Raw JSON, before and after</summary>
          <JsonDiff before={rawView(event.before)} after={rawView(event.after)} />
        </details>
      ) : null}
    </article>
  );
}
