"use client";
/**
 * The audit log, newest first, live (the loaded pages are re-read every 2 s), filtered by tenant,
 * operator, action and days, all in the URL (auditFilters.ts). Older entries load page by page
 * with `before=<id of the last entry>`. "Export CSV" downloads every entry the filters select (up
 * to MAX_EXPORT), each with its sentence.
 */
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useRouter, useSearchParams } from "next/navigation";
import { useState } from "react";
import { apiGet, LIVE_INTERVAL_MS, withQuery, type ApiError, errorMessage } from "@/components/api/apiClient";
import { useIsAdmin, useTenantLimit } from "@/components/api/useSession";
import { Empty, ErrorState, Loading } from "@/components/shell/PageState";
import { AUDIT_PAGE_MAX } from "@/lib/common/fieldLimits";
import { auditCsv } from "./auditCsv";
import { DAY_PLACEHOLDER, dayText, isoDayOf } from "@/components/format/dateInput";
import { ACTION_CHOICES, apiFilters, filtersFrom, pageQuery, type AuditFilters } from "./auditFilters";
import { AuditEntry } from "./AuditEntry";
import { AUDIT_PAGE_SIZE, type AuditEvent } from "./auditTypes";
import type { OperatorView } from "@/lib/control/auth/operatorSchemas";
import type { TenantListItem } from "@/lib/policy/tenants/tenantAnswers";

const MAX_EXPORT = 10_000;

/**
 * A day typed as "27 Nov 2026" (dateInput.ts): applied as soon as it reads as a day, cleared when
 * emptied; an unreadable one is marked and not applied. The URL keeps the ISO day.
 */
function DayInput({
  id,
  day,
  onDay,
}: {
  id: string;
  day: string | undefined;
  onDay: (day: string | undefined) => void;
}) {
  const [text, setText] = useState(() => (day ? dayText(day) : ""));
  const [shownDay, setShownDay] = useState(day);
  if (day !== shownDay) {
    setShownDay(day);
    if (day !== (text.trim() === "" ? undefined : isoDayOf(text))) setText(day ? dayText(day) : "");
  }
  const bad = text.trim() !== "" && isoDayOf(text) === null;
  return (
    <>
      <input
        id={id}
        value={text}
        placeholder={DAY_PLACEHOLDER}
        autoComplete="off"
        aria-invalid={bad || undefined}
        aria-describedby={bad ? `${id}-error` : undefined}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          if (next.trim() === "") onDay(undefined);
          else {
            const iso = isoDayOf(next);
            if (iso !== null) onDay(iso);
          }
        }}
      />
      {bad ? (
        <p className="field-error" id={`${id}-error`}>
          Write a day such as {DAY_PLACEHOLDER}.
        </p>
      ) : null}
    </>
  );
}

async function fetchAll(filters: AuditFilters): Promise<AuditEvent[]> {
  const out: AuditEvent[] = [];
  let before: string | undefined;
  while (out.length < MAX_EXPORT) {
    const page = await apiGet<AuditEvent[]>(
      withQuery("/api/admin/audit", { ...apiFilters(filters), limit: AUDIT_PAGE_MAX, before }),
    );
    out.push(...page);
    if (page.length < AUDIT_PAGE_MAX) break;
    before = page[page.length - 1]!.id;
  }
  return out;
}

function download(text: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export default function AuditLog() {
  const router = useRouter();
  const isAdmin = useIsAdmin();
  const limit = useTenantLimit();
  const asked = filtersFrom(useSearchParams());
  // An operator limited to tenants is refused the unfiltered log: it reads one of its tenants'.
  const filters = limit && !asked.tenantId ? { ...asked, tenantId: limit[0] } : asked;
  const [exporting, setExporting] = useState<string | null>(null);
  const tenants = useQuery<TenantListItem[], ApiError>({
    queryKey: ["tenants"],
    queryFn: () => apiGet<TenantListItem[]>("/api/admin/tenants"),
  });
  const operators = useQuery<OperatorView[], ApiError>({
    queryKey: ["operators"],
    queryFn: () => apiGet<OperatorView[]>("/api/admin/operators"),
    enabled: !limit, // the operator list is instance-wide
  });
  const audit = useInfiniteQuery<
    AuditEvent[],
    ApiError,
    { pages: AuditEvent[][] },
    readonly unknown[],
    string | undefined
  >({
    queryKey: ["audit", filters],
    queryFn: ({ pageParam }) =>
      apiGet<AuditEvent[]>(
        withQuery("/api/admin/audit", { ...apiFilters(filters), limit: AUDIT_PAGE_SIZE, before: pageParam }),
      ),
    initialPageParam: undefined,
    getNextPageParam: (last) => (last.length === AUDIT_PAGE_SIZE ? last[last.length - 1]?.id : undefined),
    refetchInterval: LIVE_INTERVAL_MS,
  });
  const names = new Map((tenants.data ?? []).map((t) => [t.id, t.name]));
  const events = audit.data?.pages.flat() ?? [];
  const tenantId = filters.tenantId;
  const filterKnown = tenantId === undefined || names.has(tenantId) || !tenants.data;
  const filtered = Object.keys(filters).length > 0;
  const set = (patch: Partial<AuditFilters>) => router.push(pageQuery({ ...filters, ...patch }));

  async function exportCsv() {
    setExporting("Exporting…");
    try {
      const all = await fetchAll(filters);
      download(
        auditCsv(all, (id) => names.get(id) ?? null),
        `sluice-audit-${new Date().toISOString().slice(0, 10)}.csv`,
      );
      setExporting(null);
    } catch (error) {
      setExporting(`Export failed: ${errorMessage(error)}`);
    }
  }

  return (
    <>
      <div className="page-header">
        <h1>Audit log</h1>
        <button type="button" onClick={exportCsv} disabled={exporting === "Exporting…"}>
          Export CSV
        </button>
      </div>
      <form className="audit-filters" aria-label="Filter the audit log" onSubmit={(e) => e.preventDefault()}>
        <div className="field">
          <label htmlFor="audit-tenant">Tenant</label>
          <select
            id="audit-tenant"
            value={tenantId ?? ""}
            onChange={(e) => set({ tenantId: e.target.value || undefined })}
          >
            {limit ? null : <option value="">All tenants</option>}
            {!filterKnown && tenantId ? <option value={tenantId}>{tenantId}</option> : null}
            {(tenants.data ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-actor">Operator</label>
          <select
            id="audit-actor"
            value={filters.actor ?? ""}
            onChange={(e) => set({ actor: e.target.value || undefined })}
          >
            <option value="">Anyone</option>
            <option value="token">admin API token</option>
            {filters.actor &&
            filters.actor !== "token" &&
            !(operators.data ?? []).some((o) => `operator:${o.email}` === filters.actor) ? (
              <option value={filters.actor}>{filters.actor.replace(/^operator:/, "")}</option>
            ) : null}
            {(operators.data ?? []).map((o) => (
              <option key={o.email} value={`operator:${o.email}`}>
                {o.email}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <select
            id="audit-action"
            value={filters.action ?? ""}
            onChange={(e) => set({ action: e.target.value || undefined })}
          >
            <option value="">Any change</option>
            {ACTION_CHOICES.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-from">From</label>
          <DayInput id="audit-from" day={filters.from} onDay={(from) => set({ from })} />
        </div>
        <div className="field">
          <label htmlFor="audit-to">To</label>
          <DayInput id="audit-to" day={filters.to} onDay={(to) => set({ to })} />
        </div>
        {filtered ? (
          <button type="button" className="button-quiet" onClick={() => router.push("/audit")}>
            Clear filters
          </button>
        ) : null}
      </form>
      {exporting && exporting !== "Exporting…" ? (
        <p className="form-error" role="alert">
          {exporting}
        </p>
      ) : null}
      {audit.isPending ? <Loading label="Loading the audit log…" /> : null}
      {audit.isError && events.length === 0 ? <ErrorState error={audit.error} /> : null}
      {audit.isSuccess && events.length === 0 ? (
        <Empty>{filtered ? "No change matches these filters." : "No changes recorded yet."}</Empty>
      ) : null}
      <div className="stack">
        {events.map((event) => (
          <AuditEntry
            key={event.id}
            event={event}
            tenantName={event.tenantId ? (names.get(event.tenantId) ?? null) : null}
            canRevert={isAdmin && !limit}
          />
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
