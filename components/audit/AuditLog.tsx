"use client";
/**
 * The audit log, newest first, live (the loaded pages are re-read every 2 s), optionally for one
 * tenant (`?tenantId=`). Older entries load page by page with `before=<id of the last entry>`.
 */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { apiGet, withQuery, type ApiError } from "@/components/api/apiClient";
import { useIsAdmin } from "@/components/api/useSession";
import { LIVE_INTERVAL_MS } from "@/components/charts/useMonitoring";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import { AuditEntry } from "./AuditEntry";
import { AUDIT_PAGE_SIZE, type AuditEvent } from "./auditTypes";

interface TenantSummary {
  id: string;
  name: string;
}

export default function AuditLog({ tenantId }: { tenantId?: string }) {
  const router = useRouter();
  const isAdmin = useIsAdmin();
  const tenants = useQuery<TenantSummary[], ApiError>({ queryKey: ["tenants"], queryFn: () => apiGet<TenantSummary[]>("/api/admin/tenants") });
  const audit = useInfiniteQuery<AuditEvent[], ApiError, { pages: AuditEvent[][] }, readonly unknown[], string | undefined>({
    queryKey: ["audit", tenantId ?? null],
    queryFn: ({ pageParam }) => apiGet<AuditEvent[]>(withQuery("/api/admin/audit", { tenantId, limit: AUDIT_PAGE_SIZE, before: pageParam })),
    initialPageParam: undefined,
    getNextPageParam: (last) => (last.length === AUDIT_PAGE_SIZE ? last[last.length - 1]?.id : undefined),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const names = new Map((tenants.data ?? []).map((t) => [t.id, t.name]));
  const events = audit.data?.pages.flat() ?? [];
  const filterKnown = tenantId === undefined || names.has(tenantId) || !tenants.data;

  return (
    <>
      <div className="page-header">
        <h1>Audit log</h1>
        <div className="field" style={{ marginBottom: 0 }}>
          <label htmlFor="audit-tenant">Tenant</label>
          <select id="audit-tenant" value={tenantId ?? ""} onChange={(e) => router.push(e.target.value ? withQuery("/audit", { tenantId: e.target.value }) : "/audit")}>
            <option value="">All changes</option>
            {!filterKnown && tenantId ? <option value={tenantId}>{tenantId}</option> : null}
            {(tenants.data ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {audit.isPending ? <Loading label="Loading the audit log…" /> : null}
      {audit.isError && events.length === 0 ? <ErrorState error={audit.error} /> : null}
      {audit.isSuccess && events.length === 0 ? <Empty>{tenantId ? "No changes recorded for this tenant." : "No changes recorded yet."}</Empty> : null}
      <div className="stack">
        {events.map((event) => (
          <AuditEntry key={event.id} event={event} tenantName={event.tenantId ? (names.get(event.tenantId) ?? null) : null} canRevert={isAdmin} />
        ))}
      </div>
      {audit.isError && events.length > 0 ? <ErrorState error={audit.error} /> : null}
      {audit.hasNextPage ? (
        <div className="pager">
          <button type="button" onClick={() => audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
            {audit.isFetchingNextPage ? "Loading…" : "Older changes"}
          </button>
        </div>
      ) : null}
    </>
  );
}
