/**
 * Query-string parameters of the monitoring admin API, turned into query inputs.
 *
 * Time window: `range=1m|5m|15m|1h|6h|24h` (ending at `to`, default now; points every 5 s, 30 s,
 * 1 min, 1 min, 5 min or 5 min: 5 s buckets over 5 minutes made a sawtooth of a steady bursty client,
 * issue 31), or `from` (epoch ms) with an optional `to` (default now); no window at all means the
 * last 5 minutes. `step` (ms) overrides a series' step; without it a `from` window gets 5 s up to
 * 1 min, 30 s up to 5 min, 1 min up to 1 h and 5 min beyond. `tenantId` narrows to one tenant, `rule` (a rule NAME of
 * that tenant, current or deleted) to one rule, `limit` caps list lengths.
 * Unknown or repeated parameters, malformed values (an empty value is malformed, never 0) and
 * windows the query schema refuses are 422s naming the parameter as it was given, in the errors'
 * keys and in their messages; a rule name the tenant never had is a 404.
 * A key's recent decisions take `limit` only (1 to 50, default 50); "limited right now" takes
 * `tenantId` and `limit` (1 to 100, default 20), its window is always the last minute.
 */
import { z } from "zod";
import { RULE_NAME_MAX } from "../../common/fieldLimits";
import { AppError, type FieldErrors } from "../../http/errors";
import { parseInput } from "../../http/validate";
import type { MonitoringDirectory } from "./monitoringDirectory";
import { DAY_MS, HOUR_MS, MINUTE_MS, SECOND_MS } from "../record/monitoringKeys";
import {
  hotKeysQuerySchema,
  limitedNowQuerySchema,
  monitoringTenantIdSchema,
  nearLimitQuerySchema,
  recentDecisionsQuerySchema,
  refusalRateQuerySchema,
  trafficQuerySchema,
  type HotKeysQuery,
  type LimitedNowQuery,
  type NearLimitQuery,
  type RecentDecisionsQuery,
  type RefusalRateQuery,
  type TrafficQuery,
} from "./monitoringSchemas";
import { upstreamHealthQuerySchema, type UpstreamHealthQuery } from "./upstreamHealthQuery";
import { callerHistoryQuerySchema, type CallerHistoryQuery } from "./callerHistoryQuery";

export const RANGE_PRESETS = {
  "1m": { rangeMs: MINUTE_MS, stepMs: 5 * SECOND_MS },
  "5m": { rangeMs: 5 * MINUTE_MS, stepMs: 30 * SECOND_MS },
  "15m": { rangeMs: 15 * MINUTE_MS, stepMs: MINUTE_MS },
  "1h": { rangeMs: HOUR_MS, stepMs: MINUTE_MS },
  "6h": { rangeMs: 6 * HOUR_MS, stepMs: 5 * MINUTE_MS },
  "24h": { rangeMs: DAY_MS, stepMs: 5 * MINUTE_MS },
} as const;

export type RangePreset = keyof typeof RANGE_PRESETS;
const PRESET_NAMES = Object.keys(RANGE_PRESETS) as [RangePreset, ...RangePreset[]];

/** A decimal number given as text; an empty or non-numeric value is refused rather than read as 0. */
const number = (name: string) =>
  z
    .string()
    .regex(/^-?\d+(?:\.\d+)?$/, `${name} must be a number`)
    .transform(Number);

const windowParams = {
  tenantId: monitoringTenantIdSchema.optional(),
  range: z.enum(PRESET_NAMES, { error: `range must be one of ${PRESET_NAMES.join(", ")}` }).optional(),
  from: number("from").optional(),
  to: number("to").optional(),
  limit: number("limit").optional(),
};

export const seriesParamsSchema = z.object({ ...windowParams, step: number("step").optional() }).strict();
export const trafficParamsSchema = seriesParamsSchema
  .extend({
    rule: z
      .string()
      .min(1, "rule must not be empty")
      .max(RULE_NAME_MAX, `rule must be at most ${RULE_NAME_MAX} characters`)
      .optional(),
  })
  .strict()
  .omit({ limit: true });
export const listParamsSchema = z.object(windowParams).strict();
/** One caller's history: `tenantId` and `caller` (a key id, `~subject` or `@address`) required, no `limit`. */
export const callerHistoryParamsSchema = z
  .object({ ...windowParams, caller: z.string().min(1, "caller must not be empty").max(80, "caller is too long") })
  .omit({ limit: true })
  .strict();
export const limitedParamsSchema = z.object({ tenantId: windowParams.tenantId, limit: windowParams.limit }).strict();
export const decisionsParamsSchema = z.object({ limit: number("limit").optional() }).strict();

type WindowParams = z.output<typeof listParamsSchema> & { step?: number };

function invalid(errors: FieldErrors): AppError {
  const [field, messages] = Object.entries(errors)[0] ?? ["", [""]];
  return new AppError("invalid", `The input is invalid (${field}: ${messages[0]}).`, { errors });
}

/** Parses the query string: unknown and repeated parameters are 422s naming them. */
function parseParams<S extends z.ZodObject>(schema: S, params: URLSearchParams): z.output<S> {
  const known = Object.keys(schema.shape);
  const errors: FieldErrors = {};
  for (const name of new Set(params.keys())) {
    if (!known.includes(name)) errors[name] = [`${name} is not a parameter of this query (known: ${known.join(", ")})`];
    else if (params.getAll(name).length > 1) errors[name] = [`${name} must be given once`];
  }
  if (Object.keys(errors).length > 0) throw invalid(errors);
  return parseInput(schema, Object.fromEntries(params));
}

/** Default step of a `from` window, by its length. */
export function defaultStepMs(rangeMs: number): number {
  if (rangeMs <= MINUTE_MS) return 5 * SECOND_MS;
  if (rangeMs <= 5 * MINUTE_MS) return 30 * SECOND_MS;
  if (rangeMs <= HOUR_MS) return MINUTE_MS;
  return 5 * MINUTE_MS;
}

function timeWindow(params: WindowParams, nowMs: number): { fromMs: number; toMs: number; stepMs: number } {
  if (params.range !== undefined && params.from !== undefined)
    throw invalid({ from: ["give either range or from, not both"] });
  const toMs = params.to ?? nowMs;
  const preset = RANGE_PRESETS[params.range ?? "5m"];
  const fromMs = params.from ?? toMs - preset.rangeMs;
  const stepMs = params.step ?? (params.from === undefined ? preset.stepMs : defaultStepMs(toMs - fromMs));
  return { fromMs, toMs, stepMs };
}

const PARAM_NAMES: Record<string, string> = { fromMs: "from", toMs: "to", stepMs: "step", ruleRef: "rule" };
const FIELD_NAME = /\b(fromMs|toMs|stepMs|ruleRef)\b/g;

/** Validates a query input, naming fields (in keys and messages) as the query string does. */
function validated<S extends z.ZodType>(schema: S, input: unknown): z.input<S> {
  try {
    parseInput(schema, input);
    return input as z.input<S>;
  } catch (error) {
    if (!(error instanceof AppError) || !error.extra.errors) throw error;
    const rename = (text: string) => text.replace(FIELD_NAME, (name) => PARAM_NAMES[name] ?? name);
    throw invalid(
      Object.fromEntries(
        Object.entries(error.extra.errors).map(([field, messages]) => [rename(field), messages.map(rename)]),
      ),
    );
  }
}

export async function trafficInput(
  params: URLSearchParams,
  nowMs: number,
  directory: MonitoringDirectory,
): Promise<TrafficQuery> {
  const p = parseParams(trafficParamsSchema, params);
  let ruleRef: string | undefined;
  if (p.rule !== undefined) {
    if (p.tenantId === undefined) throw invalid({ rule: ["rule needs a tenantId"] });
    ruleRef = (await directory.refOf(p.tenantId, p.rule)) ?? undefined;
    if (ruleRef === undefined)
      throw new AppError("not_found", `Tenant ${p.tenantId} has no rule named ${JSON.stringify(p.rule)}.`);
  }
  return validated(trafficQuerySchema, { tenantId: p.tenantId, ruleRef, ...timeWindow(p, nowMs) });
}

export function refusalRateInput(params: URLSearchParams, nowMs: number): RefusalRateQuery {
  const p = parseParams(seriesParamsSchema, params);
  return validated(refusalRateQuerySchema, { tenantId: p.tenantId, limit: p.limit, ...timeWindow(p, nowMs) });
}

export function hotKeysInput(params: URLSearchParams, nowMs: number): HotKeysQuery {
  const p = parseParams(listParamsSchema, params);
  const { fromMs, toMs } = timeWindow(p, nowMs);
  return validated(hotKeysQuerySchema, { tenantId: p.tenantId, limit: p.limit, fromMs, toMs });
}

export function nearLimitInput(params: URLSearchParams, nowMs: number): NearLimitQuery {
  const p = parseParams(listParamsSchema, params);
  const { fromMs, toMs } = timeWindow(p, nowMs);
  return validated(nearLimitQuerySchema, { tenantId: p.tenantId, limit: p.limit, fromMs, toMs });
}

/** `GET /api/admin/monitoring/limited?tenantId=&limit=`: the minute before `nowMs`. */
export function limitedNowInput(params: URLSearchParams, nowMs: number): LimitedNowQuery {
  const p = parseParams(limitedParamsSchema, params);
  return validated(limitedNowQuerySchema, { tenantId: p.tenantId, limit: p.limit, nowMs });
}

/** `GET /api/admin/keys/{keyId}/decisions?limit=`: the key id comes from the path. */
export function recentDecisionsInput(keyId: string, params: URLSearchParams): RecentDecisionsQuery {
  const p = parseParams(decisionsParamsSchema, params);
  return validated(recentDecisionsQuerySchema, { keyId, limit: p.limit });
}

/** `GET /api/admin/monitoring/upstream?tenantId=&range=|from=&to=`: one tenant's upstream health. */
export function upstreamHealthInput(params: URLSearchParams, nowMs: number): UpstreamHealthQuery {
  const p = parseParams(listParamsSchema, params);
  if (p.tenantId === undefined) throw invalid({ tenantId: ["tenantId is required"] });
  if (p.limit !== undefined) throw invalid({ limit: ["limit is not a parameter of this query"] });
  const { fromMs, toMs } = timeWindow(p, nowMs);
  return validated(upstreamHealthQuerySchema, { tenantId: p.tenantId, fromMs, toMs });
}

/**
 * `GET /api/admin/monitoring/caller?tenantId=&caller=&range=|from=&to=`: one caller's requests and
 * refusals per minute (per hour over 1 h), by rule (lib/monitoring/query/callerHistoryQuery.ts).
 */
export function callerHistoryInput(params: URLSearchParams, nowMs: number): CallerHistoryQuery {
  const p = parseParams(callerHistoryParamsSchema, params);
  if (p.tenantId === undefined) throw invalid({ tenantId: ["tenantId is required"] });
  const { fromMs, toMs } = timeWindow(p, nowMs);
  return validated(callerHistoryQuerySchema, { tenantId: p.tenantId, caller: p.caller, fromMs, toMs });
}
