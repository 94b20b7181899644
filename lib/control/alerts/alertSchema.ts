/**
 * The one schema of a tenant's alert settings, shared by PUT /api/admin/tenants/{id}/alerts and
 * the dashboard form (browser-safe: zod only). Body:
 * `{ webhookUrl, refusalRate?, clientLimit?, rotateSecret? }`.
 *
 * - `webhookUrl`: absolute `http:` or `https:` URL with a host, at most 2048 characters, without
 *   credentials (they would be shown in the dashboard) or a fragment. Which addresses it may reach
 *   is decided at delivery time (lib/control/alerts/webhookAddress.ts), not here: a name's address can change.
 * - `refusalRate`: "refusals above `thresholdPct` % for `minutes` minutes": the share of the
 *   tenant's refused requests over the trailing `minutes` minutes is above the threshold, counted
 *   only once those minutes held at least `minRequests` requests (so 1 refusal of 1 request is no spike).
 * - `clientLimit`: "a client hit its limit `hits` times within `windowMinutes` minutes": one
 *   subject (an API key, IP, identifier or the tenant, as its rule counts it) was refused by one
 *   enforce rule at least `hits` times in the trailing window.
 * - `billing`: `{ period: "day" | "week" | "month", timeZone? }`: at each period's end (local
 *   midnight in `timeZone`, an IANA name; default UTC), one usage webhook
 *   with each key's usage of the closed period (lib/control/alerts/billingHook.ts; weeks start on
 *   Monday).
 * - At least one condition or `billing`; `null` or absent means that condition is off.
 * - `rotateSecret`: generate a new signing secret (one is generated on the first PUT anyway).
 */
import { z } from "zod";
import { timeZoneSchema } from "../../policy/rules/ruleSchema";
import { httpUrlProblem } from "../../http/httpUrlProblem";

export const ALERT_WINDOW_MAX_MINUTES = 60;
export const DEFAULT_MIN_REQUESTS = 20;

/** Why a URL cannot be a webhook, or null when it can. */
export function webhookUrlProblem(text: string): string | null {
  return httpUrlProblem(text, "webhookUrl", "https://hooks.example.com/sluice");
}

const whole = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min.toLocaleString("en-US")}`)
    .max(max, `${field} must be at most ${max.toLocaleString("en-US")}`);

export const refusalRateConditionSchema = z
  .object({
    thresholdPct: z
      .number({ error: "thresholdPct must be a number" })
      .gt(0, "thresholdPct must be above 0")
      .lt(100, "thresholdPct must be below 100"),
    minutes: whole("minutes", 1, ALERT_WINDOW_MAX_MINUTES),
    minRequests: whole("minRequests", 1, 1_000_000).default(DEFAULT_MIN_REQUESTS),
  })
  .strict();

export const clientLimitConditionSchema = z
  .object({
    hits: whole("hits", 1, 1_000_000),
    windowMinutes: whole("windowMinutes", 1, ALERT_WINDOW_MAX_MINUTES),
  })
  .strict();

export const BILLING_PERIODS = ["day", "week", "month"] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

export const billingSettingsSchema = z
  .object({
    period: z.enum(BILLING_PERIODS, { error: "period must be day, week or month" }).default("month"),
    timeZone: timeZoneSchema.optional().meta({
      description:
        "The IANA time zone whose calendar the billing periods follow (they close at its local midnight). Absent: UTC.",
    }),
  })
  .strict();

export const alertSettingsSchema = z
  .object({
    webhookUrl: z
      .string({ error: "webhookUrl is required and must be text" })
      .trim()
      .min(1, "webhookUrl is required")
      .max(2048, "webhookUrl must be at most 2048 characters")
      .superRefine((text, ctx) => {
        const problem = webhookUrlProblem(text);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    refusalRate: refusalRateConditionSchema.nullable().default(null),
    clientLimit: clientLimitConditionSchema.nullable().default(null),
    billing: billingSettingsSchema.nullable().default(null),
    rotateSecret: z.boolean({ error: "rotateSecret must be true or false" }).default(false),
  })
  .strict()
  .refine((s) => s.refusalRate !== null || s.clientLimit !== null || s.billing !== null, {
    message: "Turn on at least one condition or the billing hook (or remove the alerts).",
    path: ["conditions"],
  });

export type AlertSettingsInput = z.input<typeof alertSettingsSchema>;
export type AlertSettings = z.output<typeof alertSettingsSchema>;
export type RefusalRateCondition = z.output<typeof refusalRateConditionSchema>;
export type ClientLimitCondition = z.output<typeof clientLimitConditionSchema>;
export type BillingSettings = z.output<typeof billingSettingsSchema>;
export const ALERT_CONDITION_TYPES = ["refusal_rate", "client_limit"] as const;
export type AlertConditionType = (typeof ALERT_CONDITION_TYPES)[number];
