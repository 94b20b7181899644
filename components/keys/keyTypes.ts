/**
 * Answer shapes of the key and quota endpoints of the admin API, as the dashboard reads them.
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

export interface RecentDecision {
  atMs: number;
  method: string;
  path: string;
  allowed: boolean;
  unavailable: boolean;
  shadowRefused: string[];
  refusedBy: string | null;
  remaining: number | null;
}

export interface RecentDecisions {
  decisions: RecentDecision[];
}
