/**
 * The answers of the monitoring queries (GET /api/admin/monitoring/..., the key page's recent
 * decisions), as zod schemas: the one description of their shape. The queries of this folder
 * return their inferred types, the OpenAPI document renders them (lib/control/openapi/paths/monitoring.ts),
 * the dashboard imports the types. Times are epoch milliseconds.
 */
import { z } from "zod";
import { RULE_MODES, SCOPES } from "../../limiter/types";
import { CALLER_KINDS } from "../record/callerMember";
import { RESOLUTIONS } from "../record/monitoringKeys";
import { recentDecisionSchema } from "../record/recentDecisions";
import { STATUS_FIELDS } from "../record/upstreamOutcomes";

const ms = z.number().int();
const count = z.number().int();
const source = z.enum(["second", "minute"]);
const resolution = z.enum(RESOLUTIONS);
const tenantName = z.string().nullable().meta({ description: "null when the tenant is unknown (deleted)." });

export const ruleLabelSchema = z.object({
  ref: z.string(),
  name: z.string().nullable().meta({ description: "null when the rule is unknown (deleted)." }),
  mode: z.enum(RULE_MODES).nullable().meta({ description: "The rule's current mode; null when it no longer exists." }),
});
export type RuleLabel = z.infer<typeof ruleLabelSchema>;

const countsShape = { allowed: count, refused: count, shadowRefused: count };
export const seriesPointSchema = z.object({ t: ms.meta({ description: "Start of the bucket." }), ...countsShape });
export type SeriesPoint = z.infer<typeof seriesPointSchema>;

/** GET .../traffic. */
export const trafficSeriesSchema = z.object({
  fromMs: ms.meta({ description: "Start of the first bucket (may precede the requested `from`)." }),
  toMs: ms,
  stepMs: ms,
  source,
  tenantId: z.string().nullable(),
  rule: ruleLabelSchema.nullable(),
  points: z.array(seriesPointSchema),
  current: z
    .object({ fromMs: ms, toMs: ms, ...countsShape })
    .meta({ description: "The last complete seconds (whole seconds, [fromMs, toMs))." }),
});
export type TrafficSeries = z.infer<typeof trafficSeriesSchema>;
export type CurrentCounts = TrafficSeries["current"];

const ratesShape = {
  requests: count,
  refusedPct: z.number().nullable(),
  shadowRefusedPct: z.number().nullable(),
};
export const ratePointSchema = seriesPointSchema.extend(ratesShape);
export type RatePoint = z.infer<typeof ratePointSchema>;
export const rateLineSchema = z.object({
  tenantId: z.string(),
  tenantName,
  rule: ruleLabelSchema.nullable().meta({ description: "null for a tenant line." }),
  total: z.object({ ...countsShape, ...ratesShape }),
  points: z.array(ratePointSchema),
});
export type RateLine = z.infer<typeof rateLineSchema>;

/** GET .../refusal-rate. */
export const refusalRatesSchema = z.object({
  fromMs: ms,
  toMs: ms,
  stepMs: ms,
  source,
  byTenant: z.array(rateLineSchema),
  byRule: z.array(rateLineSchema),
});
export type RefusalRates = z.infer<typeof refusalRatesSchema>;

const refusedRuleSchema = ruleLabelSchema.extend({ refused: count });

export const hotKeySchema = z.object({
  tenantId: z.string(),
  tenantName,
  keyId: z.string().meta({ description: "The caller's member: a key id, `~<subject id>` or `@<address>`." }),
  keyName: z
    .string()
    .nullable()
    .meta({ description: "null once the key is revoked, and for callers that are not keys." }),
  kind: z.enum(CALLER_KINDS),
  caller: z.string().meta({ description: "The key id, the JWT subject's id (without `~`), or the address." }),
  requests: count,
  refused: count,
  lastRefusedPeriodMs: ms.nullable().meta({
    description:
      "Start of the latest minute (hour, past 1 h) of the range in which it was refused; null without refusals.",
  }),
  topRule: refusedRuleSchema
    .nullable()
    .meta({ description: "The rule with the most refusals of this caller in the range; null without refusals." }),
});
export type HotKey = z.infer<typeof hotKeySchema>;

/** GET .../hot-keys. */
export const hotKeysSchema = z.object({ fromMs: ms, toMs: ms, resolution, keys: z.array(hotKeySchema) });
export type HotKeys = z.infer<typeof hotKeysSchema>;

export const hotDescriptorSchema = z.object({
  tenantId: z.string(),
  tenantName,
  rule: ruleLabelSchema,
  value: z.string().meta({
    description: 'The subject the rule counts: a value, a JSON list of values, or "=" (one counter for the rule).',
  }),
  requests: count,
  refused: count,
});
export type HotDescriptor = z.infer<typeof hotDescriptorSchema>;

/** GET .../hot-descriptors. */
export const hotDescriptorsSchema = z.object({
  fromMs: ms,
  toMs: ms,
  resolution,
  descriptors: z.array(hotDescriptorSchema),
});
export type HotDescriptors = z.infer<typeof hotDescriptorsSchema>;

export const nearLimitClientSchema = z.object({
  tenantId: z.string(),
  tenantName,
  keyId: z.string(),
  keyName: z.string().nullable(),
  rule: ruleLabelSchema,
  capacity: z
    .number()
    .meta({ description: "The rule's capacity when recorded: `burst` for token_bucket and gcra, else `limit`." }),
  remaining: z.number(),
  fraction: z.number().meta({ description: "remaining / capacity, 0 to 1." }),
  atMs: ms,
});
export type NearLimitClient = z.infer<typeof nearLimitClientSchema>;

/** GET .../near-limit. */
export const nearLimitSchema = z.object({ fromMs: ms, toMs: ms, resolution, clients: z.array(nearLimitClientSchema) });
export type NearLimit = z.infer<typeof nearLimitSchema>;

export const limitedQuotaSchema = z.object({
  limit: z.number(),
  windowMs: z.number(),
  capacity: z.number().meta({ description: "`burst` for token_bucket and gcra, else `limit`." }),
  remaining: z.number(),
  retryAfterMs: z.number().meta({ description: "0 when a request would pass this rule now; else until it would." }),
  resetMs: z.number().meta({ description: "Until the rule is whole again." }),
});
export type LimitedQuota = z.infer<typeof limitedQuotaSchema>;

export const limitedClientSchema = z.object({
  tenantId: z.string(),
  tenantName,
  scope: z.enum(SCOPES),
  subject: z.string().meta({ description: 'Key id, ip or identifier; "" for a tenant-scope rule.' }),
  keyName: z.string().nullable().meta({ description: "For a key-scope rule: the key's name (null once revoked)." }),
  rule: ruleLabelSchema,
  refused: count.meta({ description: "Refusals of the current streak, since `refusedSinceMs`." }),
  refusedSinceMs: ms.meta({ description: "Start of the first minute of the streak." }),
  lastRefusedMs: ms,
  quota: limitedQuotaSchema.nullable(),
});
export type LimitedClient = z.infer<typeof limitedClientSchema>;

/** GET .../limited. */
export const limitedNowSchema = z.object({
  nowMs: ms,
  sinceMs: ms.meta({ description: "The earliest `refusedSinceMs` listed (the previous minute's start when none)." }),
  clients: z.array(limitedClientSchema),
});
export type LimitedNow = z.infer<typeof limitedNowSchema>;

/** GET .../upstream. */
export const upstreamHealthSchema = z.object({
  tenantId: z.string(),
  fromMs: ms,
  toMs: ms,
  answers: count,
  byStatus: z.record(z.enum(STATUS_FIELDS), count),
  latency: z.object({
    p50: z.number().nullable(),
    p90: z.number().nullable(),
    p99: z.number().nullable(),
    slowerThanMs: z.number(),
  }),
});
export type UpstreamHealth = z.infer<typeof upstreamHealthSchema>;

export const callerHistoryPointSchema = z.object({
  t: ms.meta({ description: "Start of the period." }),
  requests: count,
  refused: count,
  byRule: z
    .record(z.string(), count)
    .meta({ description: "Refusals per rule ref (only rules that refused in the period)." }),
});
export type CallerHistoryPoint = z.infer<typeof callerHistoryPointSchema>;

/** GET .../caller. */
export const callerHistorySchema = z.object({
  tenantId: z.string(),
  caller: z.string(),
  kind: z.enum(CALLER_KINDS),
  shown: z.string().meta({ description: "The caller as shown: key id, subject id without `~`, address without `@`." }),
  fromMs: ms,
  toMs: ms,
  resolution,
  stepMs: ms.meta({ description: "Period length (60 000 per minute, 3 600 000 per hour)." }),
  points: z.array(callerHistoryPointSchema),
  rules: z.array(refusedRuleSchema).meta({ description: "Every rule that refused the caller, most refusals first." }),
  totals: z.object({ requests: count, refused: count }),
  current: z
    .object({ fromMs: ms, toMs: ms, requests: count, refused: count })
    .meta({ description: "The last complete minute before `toMs` (0s when it is before the range)." }),
});
export type CallerHistory = z.infer<typeof callerHistorySchema>;

/** GET /api/admin/keys/{keyId}/decisions. */
export const recentDecisionsSchema = z
  .object({ decisions: z.array(recentDecisionSchema) })
  .meta({ description: "The key's recent decisions, newest first (at most 50)." });
export type RecentDecisions = z.infer<typeof recentDecisionsSchema>;
