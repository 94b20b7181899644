/**
 * Inputs of the monitoring queries, one zod schema each, shared by the admin API and the dashboard.
 * Times are epoch milliseconds; a range is [fromMs, toMs), at most 24 h. Series steps are whole
 * seconds; a step that is not a whole number of minutes reads per-second data and is allowed for
 * ranges up to 1 h only; a series has at most MAX_POINTS points. Messages name the field at fault.
 */
import { z } from "zod";
import { BASE62_CLASS, ID_LENGTH, ID_PATTERN } from "../../common/apiKeyFormat";
import { DAY_MS, HOUR_MS, MINUTE_MS, RECENT_DECISIONS_KEPT, SECOND_MS } from "../record/monitoringKeys";

export const MAX_POINTS = 1440;

/** A tenant id, or `-anon`: the requests that had no valid API key. */
export const monitoringTenantIdSchema = z
  .string({ error: "tenantId must be a tenant id" })
  .regex(new RegExp(`^(?:[${BASE62_CLASS}]{${ID_LENGTH}}|-anon)$`), "tenantId must be a tenant id");

export const ruleRefSchema = z
  .string({ error: "ruleRef must be a rule ref" })
  .regex(/^[a-z0-9_-]{1,64}$/, "ruleRef must be a rule ref");

const epochMs = (name: string) =>
  z
    .number({ error: `${name} must be a number (epoch milliseconds)` })
    .int(`${name} must be a whole number of milliseconds`)
    .min(0, `${name} must not be negative`)
    .max(8.64e15, `${name} is out of range`);

const limitSchema = (fallback: number, max: number) =>
  z
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(max, `limit must be at most ${max}`)
    .default(fallback);

const stepSchema = z
  .number({ error: "stepMs must be a number" })
  .int("stepMs must be a whole number")
  .min(SECOND_MS, { message: "stepMs must be at least 1000", abort: true })
  .max(DAY_MS, "stepMs must be at most 86400000")
  .refine((step) => step % SECOND_MS === 0, "stepMs must be a whole number of seconds");

type RangeInput = { fromMs: number; toMs: number; stepMs?: number };

function checkRange(input: RangeInput, ctx: z.RefinementCtx): void {
  const span = input.toMs - input.fromMs;
  if (span <= 0) {
    ctx.addIssue({ code: "custom", path: ["toMs"], message: "toMs must be after fromMs" });
    return;
  }
  if (span > DAY_MS) ctx.addIssue({ code: "custom", path: ["fromMs"], message: "the range must be at most 24 h" });
  const step = input.stepMs;
  if (step === undefined) return;
  if (span / step > MAX_POINTS)
    ctx.addIssue({
      code: "custom",
      path: ["stepMs"],
      message: `stepMs is too small for this range: at most ${MAX_POINTS} points`,
    });
  if (step % MINUTE_MS !== 0 && span > HOUR_MS) {
    ctx.addIssue({
      code: "custom",
      path: ["stepMs"],
      message: "for a range over 1 h, stepMs must be a whole number of minutes",
    });
  }
}

export const trafficQuerySchema = z
  .object({
    tenantId: monitoringTenantIdSchema.optional(),
    ruleRef: ruleRefSchema.optional(),
    fromMs: epochMs("fromMs"),
    toMs: epochMs("toMs"),
    stepMs: stepSchema,
  })
  .strict()
  .superRefine((input, ctx) => {
    checkRange(input, ctx);
    if (input.ruleRef !== undefined && input.tenantId === undefined)
      ctx.addIssue({ code: "custom", path: ["ruleRef"], message: "ruleRef needs a tenantId" });
  });

export const refusalRateQuerySchema = z
  .object({
    tenantId: monitoringTenantIdSchema.optional(),
    fromMs: epochMs("fromMs"),
    toMs: epochMs("toMs"),
    stepMs: stepSchema,
    /** Lines per breakdown (tenants, rules). */
    limit: limitSchema(10, 50),
  })
  .strict()
  .superRefine(checkRange);

export const hotKeysQuerySchema = z
  .object({
    tenantId: monitoringTenantIdSchema.optional(),
    fromMs: epochMs("fromMs"),
    toMs: epochMs("toMs"),
    limit: limitSchema(20, 100),
  })
  .strict()
  .superRefine(checkRange);

export const nearLimitQuerySchema = hotKeysQuerySchema;

/** "Limited right now": the last minute before `nowMs`. */
export const limitedNowQuerySchema = z
  .object({
    tenantId: monitoringTenantIdSchema.optional(),
    nowMs: epochMs("nowMs"),
    limit: limitSchema(20, 100),
  })
  .strict();

export const recentDecisionsQuerySchema = z
  .object({
    keyId: z.string({ error: "keyId must be an API key id" }).regex(ID_PATTERN, "keyId must be an API key id"),
    limit: limitSchema(RECENT_DECISIONS_KEPT, RECENT_DECISIONS_KEPT),
  })
  .strict();

export type TrafficQuery = z.input<typeof trafficQuerySchema>;
export type RefusalRateQuery = z.input<typeof refusalRateQuerySchema>;
export type HotKeysQuery = z.input<typeof hotKeysQuerySchema>;
export type NearLimitQuery = z.input<typeof nearLimitQuerySchema>;
export type LimitedNowQuery = z.input<typeof limitedNowQuerySchema>;
export type RecentDecisionsQuery = z.input<typeof recentDecisionsQuerySchema>;
