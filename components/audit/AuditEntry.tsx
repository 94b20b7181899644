"use client";
/**
 * One change: a sentence with names saying what changed, who, when, the tenant it belongs to,
 * before and after side by side (collapsed), and for
 * admins a Revert button (with confirmation) on the kinds of change that can be reverted. Its
 * outcome, or the server's refusal (409: e.g. the key was revoked again since), is shown under
 * the entry.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { apiSend, type ApiError } from "@/components/api/apiClient";
import { formatDateTime } from "@/components/format/dateFormat";
import { TenantLink } from "@/components/charts/entityLinks";
import { errorMessage } from "@/components/shell/PageState";
import { ID_PATTERN as ID } from "@/lib/common/apiKeyFormat";
import { auditSentence } from "./auditSentence";
import { actorLabel, type AuditEvent } from "./auditTypes";
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
  // The entry's accessible name: "<action> #<id>".
  const headingId = `audit-${event.id}`;

  return (
    <article className="card audit-entry" aria-labelledby={`${headingId} ${headingId}-id`}>
      <div className="audit-meta">
        <span id={headingId} className="audit-action">
          {event.action}
        </span>
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
        <span>
          <span className="muted">by </span>
          <span className="name">{actorLabel(event.actor)}</span>
        </span>
        <time dateTime={event.at} className="muted">
          {formatDateTime(event.at)}
        </time>
        <span className="muted" id={`${headingId}-id`}>
          #{event.id}
        </span>
        {event.revertOf ? <span className="badge">reverts #{event.revertOf}</span> : null}
        {canRevert && event.revertible ? (
          <span className="audit-revert">
            <RevertButton
              event={event}
              names={{ tenant: tenantName }}
              onConfirm={() => revert.mutateAsync().catch(() => undefined)}
            />
          </span>
        ) : null}
      </div>
      <p className="audit-sentence name">{auditSentence(event, { tenant: tenantName })}</p>
      {revert.isSuccess ? (
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
          <summary>Before and after</summary>
          <JsonDiff before={event.before} after={event.after} />
        </details>
      ) : null}
    </article>
  );
}
