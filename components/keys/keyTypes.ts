/**
 * Answer shapes of the key and quota endpoints of the admin API, as the dashboard reads them.
 * Where the answering module exists in lib/, its own type is re-exported (a change there is then
 * a compile error here).
 */
import type { Algorithm, RuleMode, Scope } from "@/lib/limiter/types";
import type { Rule } from "@/lib/rules/ruleSchema";

export interface KeyView {
  id: string;
  tenantId: string;
  name: string;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export interface CreatedKey extends KeyView {
  key: string;
}

export type RuleSource = "tenant" | "override";

export interface KeyDetails extends KeyView {
  tenantName: string;
  rules: { tenant: Rule[]; overrides: Rule[]; effective: (Rule & { source: RuleSource })[] };
}

export interface RuleQuota {
  name: string;
  source: RuleSource;
  scope: Scope;
  algorithm: Algorithm;
  mode: RuleMode;
  limit: number;
  capacity: number;
  remaining: number | null;
  resetMs: number | null;
  retryAfterMs: number | null;
}

export interface KeyQuota {
  nowMs: number;
  rules: RuleQuota[];
}

export interface TenantQuota {
  nowMs: number;
  tenantRules: RuleQuota[];
  keys: { keyId: string; keyName: string; rules: RuleQuota[] }[];
  truncated: boolean;
}

export type { RecentDecision } from "@/lib/metrics/recentDecisions";
export type { RecentDecisions } from "@/lib/metrics/recentDecisionsQuery";
