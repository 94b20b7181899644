"use client";
/**
 * The logged-in operator: GET /api/auth/me as a React Query result (`{ email, role, tenantIds }`). A 401
 * means "not logged in" (the shell redirects to /login); it is never retried.
 */
import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import type { Role, SessionAnswer as Session } from "@/lib/control/auth/operatorSchemas";
import { ApiError, apiGet } from "./apiClient";

/** Declared once, in lib/ (a zod schema; type-only: nothing of the server is bundled). */
export type { Role, Session };

export const SESSION_QUERY_KEY = ["session"] as const;

/**
 * `initial`: the session the server already knows (the dashboard layout), to skip a first fetch.
 * `paused`: ask nothing (the shell, while logging out).
 */
export function useSession(initial?: Session, paused = false): UseQueryResult<Session, ApiError> {
  return useQuery<Session, ApiError>({
    queryKey: SESSION_QUERY_KEY,
    enabled: !paused,
    queryFn: () => apiGet<Session>("/api/auth/me"),
    initialData: initial,
    staleTime: 10_000,
    // Roles are read per request on the server; re-reading now and then keeps the UI in step.
    refetchInterval: 30_000,
    retry: (failures, error) => error.status !== 401 && error.status !== 403 && failures < 2,
  });
}

export function useIsAdmin(): boolean {
  return useSession().data?.role === "admin";
}

/**
 * The tenants the operator is limited to, or null when it may see every tenant: a limited operator
 * is refused instance-wide calls (403), so the dashboard asks only for its tenants' data.
 */
export function useTenantLimit(): readonly string[] | null {
  const tenantIds = useSession().data?.tenantIds;
  return tenantIds && tenantIds.length > 0 ? tenantIds : null;
}
