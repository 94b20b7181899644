/**
 * GET /api/admin/tenants/{tenantId}/usage's query string (CONTRACT.md "Quotas, grants and usage").
 *
 * - `from`, `to`: ISO 8601 dates or date-times (a date is midnight UTC); `from` inclusive, `to`
 *   exclusive. Defaults: `to` now, `from` USAGE_DEFAULT_DAYS before `to`. `from` after `to`, or a
 *   range longer than USAGE_MAX_RANGE_DAYS, is a 422.
 * - `granularity`: `hour` or `day` (UTC days; default `day`).
 * - `groupBy`: `key`, `caller`, `rule` or `tier`; none: one row per period.
 * - `key`: only that API key's usage (an extension: one key's usage without the others').
 * - `format`: `csv` answers CSV as `Accept: text/csv` does (an extension: a plain download link).
 * Unknown or repeated parameters are a 422.
 */
import { z } from "zod";
import { ID_PATTERN } from "../../common/apiKeyFormat";
import { AppError } from "../../http/errors";
import { parseInput } from "../../http/validate";
import { DAY_MS } from "../record/monitoringKeys";

export const USAGE_MAX_RANGE_DAYS = 400;
export const USAGE_DEFAULT_DAYS = 31;
export const GRANULARITIES = ["hour", "day"] as const;
export const USAGE_GROUPS = ["key", "caller", "rule", "tier"] as const;
export type Granularity = (typeof GRANULARITIES)[number];
export type UsageGroup = (typeof USAGE_GROUPS)[number];

const isoTime = (name: string) =>
  z
    .string()
    .refine(
      (text) => /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) && !Number.isNaN(Date.parse(text)),
      `${name} must be an ISO 8601 date such as 2026-11-01 or date-time such as 2026-11-01T00:00:00Z`,
    )
    .transform((text) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text))
    .optional();

export const usageParamsSchema = z
  .object({
    from: isoTime("from"),
    to: isoTime("to"),
    granularity: z.enum(GRANULARITIES, { error: "granularity must be hour or day" }).default("day"),
    groupBy: z.enum(USAGE_GROUPS, { error: "groupBy must be key, caller, rule or tier" }).optional(),
    key: z.string().regex(ID_PATTERN, "key must be an API key id").optional(),
    format: z.enum(["json", "csv"], { error: "format must be json or csv" }).optional(),
  })
  .strict();

export interface UsageInput {
  from: Date;
  to: Date;
  granularity: Granularity;
  groupBy?: UsageGroup;
  key?: string;
  format?: "json" | "csv";
}

const invalid = (field: string, message: string) =>
  new AppError("invalid", `The input is invalid (${field}: ${message}).`, { errors: { [field]: [message] } });

export function usageInput(params: URLSearchParams, nowMs: number): UsageInput {
  const raw: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name in raw) throw invalid(name, `${name} must be given once`);
    raw[name] = value;
  }
  const parsed = parseInput(usageParamsSchema, raw);
  const to = parsed.to ?? new Date(nowMs);
  const from = parsed.from ?? new Date(to.getTime() - USAGE_DEFAULT_DAYS * DAY_MS);
  if (from.getTime() > to.getTime()) throw invalid("from", "from must not be after to");
  if (to.getTime() - from.getTime() > USAGE_MAX_RANGE_DAYS * DAY_MS)
    throw invalid("to", `the range must be at most ${USAGE_MAX_RANGE_DAYS} days`);
  return { from, to, granularity: parsed.granularity, groupBy: parsed.groupBy, key: parsed.key, format: parsed.format };
}
