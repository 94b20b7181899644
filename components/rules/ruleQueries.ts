"use client";
/** An owner's rule list as a live React Query result (polled every 2 s, last answer kept on screen). */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiGet, LIVE_INTERVAL_MS, type ApiError } from "@/components/api/apiClient";
import type { Rule } from "@/lib/policy/rules/ruleSchema";
import { rulesPath, rulesQueryKey, type RuleOwner } from "./ruleOwner";

export function useRules(owner: RuleOwner) {
  return useQuery<Rule[], ApiError>({
    queryKey: rulesQueryKey(owner),
    queryFn: () => apiGet<Rule[]>(rulesPath(owner)),
    refetchInterval: LIVE_INTERVAL_MS,
    placeholderData: keepPreviousData,
  });
}
