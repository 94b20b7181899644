"use client";
/**
 * Tenants as React Query results. Lists and the tenant itself refresh every 2 s, keeping the last
 * answer on screen while the next loads, so another operator's change appears without a reload.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiGet, LIVE_INTERVAL_MS, type ApiError } from "@/components/api/apiClient";
import type { TenantDetail } from "@/lib/control/admin/answers";
import type { TenantListItem, TenantView } from "@/lib/policy/tenants/tenantAnswers";

/** The answer shapes, declared once in lib/ (zod schemas; type-only imports: nothing of the server is bundled). */
export type { TenantDetail, TenantListItem, TenantView as Tenant };

export const TENANTS_QUERY_KEY = ["tenants"] as const;

export function tenantPath(tenantId: string): string {
  return `/api/admin/tenants/${encodeURIComponent(tenantId)}`;
}

export function useTenants() {
  return useQuery<TenantListItem[], ApiError>({
    queryKey: TENANTS_QUERY_KEY,
    queryFn: () => apiGet<TenantListItem[]>("/api/admin/tenants"),
    refetchInterval: LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
}

/** `enabled` false: not fetched (yet), e.g. while the key whose tenant it is loads. */
export function useTenant(tenantId: string, enabled = true) {
  return useQuery<TenantDetail, ApiError>({
    queryKey: ["tenant", tenantId],
    enabled,
    queryFn: () => apiGet<TenantDetail>(tenantPath(tenantId)),
    refetchInterval: LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
}
