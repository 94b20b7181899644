"use client";
/** A tenant's tiers (plans) as a live React Query result: GET /api/admin/tenants/{id}/tiers. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiGet, LIVE_INTERVAL_MS, type ApiError } from "@/components/api/apiClient";
import type { TierView } from "@/lib/policy/tiers/tierAnswers";
import { tenantPath } from "./tenantQueries";

export type { TierView };

export const tiersQueryKey = (tenantId: string) => ["tenant", tenantId, "tiers"] as const;

export function useTiers(tenantId: string) {
  return useQuery<TierView[], ApiError>({
    queryKey: tiersQueryKey(tenantId),
    queryFn: () => apiGet<TierView[]>(`${tenantPath(tenantId)}/tiers`),
    refetchInterval: LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
}
