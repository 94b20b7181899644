/**
 * Answer shapes of the key, quota and decision endpoints of the admin API, re-exported from the
 * modules that produce them (type-only: nothing of the server is bundled), so a change there is a
 * compile error here.
 */
export type { CreatedKey, KeyDetails, KeyView, RuleSource } from "@/lib/policy/keys/keyAnswers";
export type { KeyQuota, RuleQuota, TenantQuota } from "@/lib/control/admin/quotaAnswers";
export type { RecentDecision } from "@/lib/monitoring/record/recentDecisions";
export type { RecentDecisions } from "@/lib/monitoring/query/monitoringAnswers";
