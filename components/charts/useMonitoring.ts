"use client";
/**
 * The monitoring API (app/api/admin/monitoring/*) as live React Query results: polled every 2 s,
 * keeping the last answer on screen while the next one loads (and while a new range loads).
 * Answer types come from the query modules themselves, so a change there is a compile error here.
 */
import { keepPreviousData, useQuery, type UseQueryResult } from "@tanstack/react-query";
import type { HotKeys } from "@/lib/metrics/hotKeysQuery";
import type { LimitedNow } from "@/lib/metrics/limitedNowQuery";
import type { NearLimit } from "@/lib/metrics/nearLimitQuery";
import type { RefusalRates } from "@/lib/metrics/refusalRateQuery";
import type { TrafficSeries } from "@/lib/metrics/trafficQuery";
import { apiGet, withQuery, type ApiError } from "@/components/api/apiClient";
import type { Range } from "./RangePicker";

export type { HotKeys, NearLimit, RefusalRates, TrafficSeries };

export const LIVE_INTERVAL_MS = 2000;

type Params = Record<string, string | number | undefined>;

function useMonitoring<T>(endpoint: string, params: Params): UseQueryResult<T, ApiError> {
  return useQuery<T, ApiError>({
    queryKey: ["monitoring", endpoint, params],
    queryFn: () => apiGet<T>(withQuery(`/api/admin/monitoring/${endpoint}`, params)),
    refetchInterval: LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
}

export function useTraffic(params: { tenantId?: string; rule?: string; range: Range }) {
  return useMonitoring<TrafficSeries>("traffic", params);
}

export function useRefusalRate(params: { tenantId?: string; range: Range }) {
  return useMonitoring<RefusalRates>("refusal-rate", params);
}

export function useHotKeys(params: { tenantId?: string; range: Range; limit?: number }) {
  return useMonitoring<HotKeys>("hot-keys", { limit: 20, ...params });
}

/** Who was refused in the last minute (no range: always the last minute). */
export function useLimitedNow(params: { tenantId?: string; limit?: number }) {
  return useMonitoring<LimitedNow>("limited", { limit: 20, ...params });
}
