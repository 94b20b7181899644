"use client";
/**
 * API keys, their quota and their recent decisions as React Query results, polled every 2 s and
 * keeping the last answer on screen while the next loads. Query keys start with ["tenant", id] or
 * ["key", id] so a change (a rule save, a revoke) can refresh everything about its owner at once.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiGet, LIVE_INTERVAL_MS, withQuery, type ApiError } from "@/components/api/apiClient";
import type { KeyDetails, KeyQuota, KeyView, RecentDecisions, TenantQuota } from "./keyTypes";

export function keyPath(keyId: string): string {
  return `/api/admin/keys/${encodeURIComponent(keyId)}`;
}

export function tenantKeysPath(tenantId: string): string {
  return `/api/admin/tenants/${encodeURIComponent(tenantId)}/keys`;
}

export const tenantKeysQueryKey = (tenantId: string) => ["tenant", tenantId, "keys"] as const;

function useLive<T>(queryKey: readonly unknown[], path: string, enabled = true) {
  return useQuery<T, ApiError>({
    queryKey,
    queryFn: () => apiGet<T>(path),
    refetchInterval: LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useTenantKeys(tenantId: string) {
  return useLive<KeyView[]>(tenantKeysQueryKey(tenantId), tenantKeysPath(tenantId));
}

export function useTenantQuota(tenantId: string) {
  return useLive<TenantQuota>(
    ["tenant", tenantId, "quota"],
    `/api/admin/tenants/${encodeURIComponent(tenantId)}/quota`,
  );
}

export function useKey(keyId: string) {
  return useLive<KeyDetails>(["key", keyId], keyPath(keyId));
}

/** A revoked key has no quota (the API answers 409): pass `enabled: false` for it. */
export function useKeyQuota(keyId: string, enabled = true) {
  return useLive<KeyQuota>(["key", keyId, "quota"], `${keyPath(keyId)}/quota`, enabled);
}

/** Without `limit` the API answers every decision it keeps (the last 50). */
export function useKeyDecisions(keyId: string, limit?: number) {
  return useLive<RecentDecisions>(
    ["key", keyId, "decisions", limit ?? null],
    withQuery(`${keyPath(keyId)}/decisions`, { limit }),
  );
}
