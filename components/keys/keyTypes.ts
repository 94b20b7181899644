/**
 * Answer shapes of the key, quota and decision endpoints of the admin API, re-exported from the
 * modules that produce them (type-only: nothing of the server is bundled), so a change there is a
 * compile error here.
 */
export type { CreatedKey, KeyView } from "@/lib/apiKeys/keyStore";
export type { KeyDetails, RuleSource } from "@/lib/apiKeys/keyRules";
export type { KeyQuota, RuleQuota, TenantQuota } from "@/lib/admin/remainingQuota";
export type { RecentDecision } from "@/lib/metrics/recentDecisions";
export type { RecentDecisions } from "@/lib/metrics/recentDecisionsQuery";
