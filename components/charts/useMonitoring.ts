"use client";
/**
 * The monitoring API (app/api/admin/monitoring/*) as live React Query results: polled every 2 s
 * unless the view is paused, keeping the last answer on screen while the next one loads (and
 * while a new range loads). The window comes from the page's MonitoringView (timeRange.ts).
 * Answer types come from the query modules themselves, so a change there is a compile error here.
 */
import { keepPreviousData, useQuery, type UseQueryResult } from "@tanstack/react-query";
import type { CallerHistory } from "@/lib/monitoring/query/monitoringAnswers";
import type { HotKeys } from "@/lib/monitoring/query/monitoringAnswers";
import type { HotDescriptors } from "@/lib/monitoring/query/monitoringAnswers";
import type { LimitedNow } from "@/lib/monitoring/query/monitoringAnswers";
import type { NearLimit } from "@/lib/monitoring/query/monitoringAnswers";
import type { RefusalRates } from "@/lib/monitoring/query/monitoringAnswers";
import type { TrafficSeries } from "@/lib/monitoring/query/monitoringAnswers";
import type { AuditEvent } from "@/components/audit/auditTypes";
import { apiGet, LIVE_INTERVAL_MS, withQuery, type ApiError } from "@/components/api/apiClient";
import { rangeQuery } from "./timeRange";
import type { MonitoringView } from "./useMonitoringView";

export type { CallerHistory, HotDescriptors, HotKeys, NearLimit, RefusalRates, TrafficSeries };

type Params = Record<string, string | number | undefined>;

function useMonitoring<T>(
  endpoint: string,
  params: Params,
  paused = false,
  enabled = true,
): UseQueryResult<T, ApiError> {
  return useQuery<T, ApiError>({
    queryKey: ["monitoring", endpoint, params],
    enabled,
    queryFn: () => apiGet<T>(withQuery(`/api/admin/monitoring/${endpoint}`, params)),
    refetchInterval: paused ? false : LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
}

export function useTraffic({ view, ...params }: { tenantId?: string; rule?: string; view: MonitoringView }) {
  return useMonitoring<TrafficSeries>("traffic", { ...params, ...rangeQuery(view.range) }, view.paused);
}

/** The `limit` tenants and rules refusing most (the top N of the charts). */
export function useRefusalRate({ view, ...params }: { tenantId?: string; limit?: number; view: MonitoringView }) {
  return useMonitoring<RefusalRates>("refusal-rate", { ...params, ...rangeQuery(view.range) }, view.paused);
}

export function useHotKeys({ view, ...params }: { tenantId?: string; limit?: number; view: MonitoringView }) {
  return useMonitoring<HotKeys>("hot-keys", { limit: 20, ...params, ...rangeQuery(view.range) }, view.paused);
}

export function useHotDescriptors({ view, ...params }: { tenantId?: string; limit?: number; view: MonitoringView }) {
  return useMonitoring<HotDescriptors>(
    "hot-descriptors",
    { limit: 20, ...params, ...rangeQuery(view.range) },
    view.paused,
  );
}

/** One caller's requests and refusals per minute (per hour past 1 h), by rule: the key and caller pages. */
export function useCallerHistory({ view, ...params }: { tenantId: string; caller: string; view: MonitoringView }) {
  return useMonitoring<CallerHistory>("caller", { ...params, ...rangeQuery(view.range) }, view.paused);
}

/** Who was refused in the last minute (no range: always the last minute). */
export function useLimitedNow(params: { tenantId?: string; limit?: number }) {
  return useMonitoring<LimitedNow>("limited", { limit: 20, ...params });
}

/** Each tenant's requests and refusals over the last 24 h, per hour (the tenants list's sparklines; the 50 refusing most). */
/** The tenants list's sparklines: the TENANT_ACTIVITY_LIMIT tenants refusing most over 24 h. */
export const TENANT_ACTIVITY_LIMIT = 50;

/** `enabled` false: not asked (an operator limited to tenants is refused this instance-wide ranking). */
export function useTenantActivity(enabled = true) {
  return useMonitoring<RefusalRates>(
    "refusal-rate",
    { range: "24h", step: 3_600_000, limit: TENANT_ACTIVITY_LIMIT },
    false,
    enabled,
  );
}

/**
 * The audit events of a chart's window (all tenants', or one tenant's), for its change markers
 * (changeMarkers.ts): asked once the series says its window, from the start of that minute, and
 * polled like the charts.
 */
export function useChangeEvents({
  tenantId,
  fromMs,
  view,
}: {
  tenantId?: string;
  fromMs: number | undefined;
  view: MonitoringView;
}): AuditEvent[] {
  const from = fromMs === undefined ? undefined : new Date(Math.floor(fromMs / 60_000) * 60_000).toISOString();
  const query = useQuery<AuditEvent[], ApiError>({
    queryKey: ["audit", "markers", tenantId ?? null, from],
    queryFn: () => apiGet<AuditEvent[]>(withQuery("/api/admin/audit", { tenantId, from, limit: 100 })),
    enabled: from !== undefined,
    refetchInterval: view.paused ? false : LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
  return query.data ?? [];
}
