/**
 * The one schema of a rule (../shared/CONTRACT.md "Rules"), used by the admin API and the dashboard
 * form alike. Parsing fills the contract's defaults; every refusal names its field with a message an
 * operator can act on. `toLimiterRule` turns a stored rule into what the limiter needs.
 */
import { z } from "zod";
import {
  ATTRIBUTE_NAME_MAX,
  DESCRIPTOR_ENTRIES_MAX,
  DESCRIPTOR_KEY_MAX,
  DESCRIPTOR_VALUE_MAX,
  MAX_ATTRIBUTE_WINDOW_MS,
  MAX_BLOCK_MS,
  MAX_GLOB_WILDCARDS,
  MAX_RULES_PER_OWNER,
  MAX_SLIDING_LOG_LIMIT,
  MAX_UNITS,
  MAX_WINDOW_DAYS,
  MAX_WINDOW_MS,
  MIN_WINDOW_MS,
  PATH_GLOB_MAX,
  RULE_NAME_MAX,
  RULE_NAME_PATTERN,
} from "../../common/fieldLimits";
import {
  FAIL_MODES,
  ON_MISSING,
  RULE_ALGORITHMS,
  RULE_MODES,
  SCOPES,
  STATUS_CLASSES,
  type LimiterRule,
  type OnMissing,
  type Scope,
} from "../../limiter/types";
import { plainText } from "../../common/textInput";
import { isTimeZone, PERIODS, PERIOD_MAX_MS, type CalendarPeriod } from "../../limiter/calendar";

import { HTTP_METHODS } from "../../http/httpMethods";

const units = (what: string, min: number) =>
  z
    .number({ error: `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .min(min, `${what} must be at least ${min}`)
    .max(MAX_UNITS, `${what} must be at most ${MAX_UNITS.toLocaleString("en")}`);

/** An IANA time zone name: a calendar rule's `timeZone`, and the billing hook's (lib/control/alerts). */
export const timeZoneSchema = z
  .string({ error: "timeZone must be text" })
  .max(64, "timeZone must be at most 64 characters")
  .refine(isTimeZone, "timeZone must be an IANA time zone name such as UTC or Europe/Berlin");

/**
 * `*` matches one path segment, `**` any number. Any absolute path, matched against the path the
 * protected API sees (lib/dataplane/requestRoute.ts): `/orders/*` for the gateway's
 * /api/v1/orders/42, a tenant host's path as sent and forward auth's forwarded path alike;
 * `/api/v1/echo/*` for Sluice's own echo (and check) only.
 */
export const pathGlobSchema = plainText(
  z
    .string({ error: "path must be text" })
    .max(PATH_GLOB_MAX, `path must be at most ${PATH_GLOB_MAX} characters`)
    .regex(/^\/[^\s?#]*$/, "path must start with / and contain no spaces, ? or #"),
  "path",
)
  .refine((p) => p.split("/").every((seg) => !seg.includes("*") || seg === "*" || seg === "**"), {
    message: "path wildcards must be a whole segment: /* or /**",
  })
  .refine((p) => p.split("/").filter((seg) => seg === "*" || seg === "**").length <= MAX_GLOB_WILDCARDS, {
    message: `path may hold at most ${MAX_GLOB_WILDCARDS} wildcards (* or **)`,
  });

/**
 * One entry of `match.descriptor`: Envoy's descriptor entry key, and the value it must have, or no
 * value: the rule then counts per distinct value of that entry (docs/envoy.md).
 */
const descriptorEntrySchema = z
  .object({
    key: plainText(
      z
        .string({ error: "descriptor key must be text" })
        .min(1, "descriptor key must not be empty")
        .max(DESCRIPTOR_KEY_MAX, `descriptor key must be at most ${DESCRIPTOR_KEY_MAX} characters`),
      "descriptor key",
    ),
    value: plainText(
      z
        .string({ error: "descriptor value must be text" })
        .min(1, "descriptor value must not be empty (leave it out to count per value)")
        .max(DESCRIPTOR_VALUE_MAX, `descriptor value must be at most ${DESCRIPTOR_VALUE_MAX} characters`),
      "descriptor value",
    ).optional(),
  })
  .strict();

export type DescriptorEntry = { key: string; value?: string };

export const descriptorMatchSchema = z
  .array(descriptorEntrySchema, { error: "descriptor must be a list of { key, value? } entries" })
  .min(1, "descriptor must list at least one entry")
  .max(DESCRIPTOR_ENTRIES_MAX, `descriptor may list at most ${DESCRIPTOR_ENTRIES_MAX} entries`)
  .meta({
    description: `Scope \`descriptor\` only (Envoy's rate limit service, required there): the descriptor this rule applies to, 1..${DESCRIPTOR_ENTRIES_MAX} entries \`{ key, value? }\` (key 1..${DESCRIPTOR_KEY_MAX} characters, value 1..${DESCRIPTOR_VALUE_MAX}). A descriptor matches when it has exactly these keys in this order and the given values; the rule counts per distinct values of the entries without a value. Excludes methods and path.`,
  });

export const matchSchema = z
  .object({
    methods: z
      .array(z.enum(HTTP_METHODS, { error: `methods must be among ${HTTP_METHODS.join(", ")}` }))
      .min(1, "methods must list at least one method")
      .optional(),
    path: pathGlobSchema.optional().meta({
      description:
        "A glob (`*` one segment, `**` any number) matched against the path the protected API sees: through the gateway the path forwarded, without /api/v1 (`/orders/*` for `/api/v1/orders/42`); on a tenant's host the path as sent; for /api/v1/authorize the forwarded URI's path; for Sluice's own echo and check their full path (`/api/v1/echo/*`). Absent: every path.",
    }),
    /**
     * For APIs whose router ignores case (ASP.NET, Spring with a case-insensitive matcher, Express
     * with `caseSensitive: false`, the default): `/api/v1/LOGIN` then counts against a rule on
     * `/login`. Off by default: most routers, and the URI standard, tell case apart.
     */
    caseInsensitive: z.boolean({ error: "caseInsensitive must be true or false" }).optional().meta({
      description:
        "Match `path` without regard to case (`/LOGIN` counts against `/login`), for APIs whose router ignores case. Requires `path`. Default false: paths are compared exactly.",
    }),
    descriptor: descriptorMatchSchema.optional(),
  })
  .strict()
  .refine(
    (match) =>
      match.descriptor === undefined ||
      (match.methods === undefined && match.path === undefined && match.caseInsensitive === undefined),
    {
      path: ["descriptor"],
      message: "a descriptor rule matches Envoy's descriptors only: leave out methods, path and caseInsensitive",
    },
  )
  .refine((match) => match.caseInsensitive !== true || match.path !== undefined, {
    path: ["caseInsensitive"],
    message: "caseInsensitive needs a path to compare (without one the rule applies to every path)",
  });

/** An HTTP field name (RFC 9110 token), at most ATTRIBUTE_NAME_MAX characters; compared in lower case. */
const HEADER_NAME = new RegExp(`^[!#$%&'*+.^_\`|~0-9A-Za-z-]{1,${ATTRIBUTE_NAME_MAX}}$`);
/** A query parameter name as sent, unencoded: no `&`, `=`, `#`, `+`, `%` or spaces. */
const QUERY_NAME = new RegExp(`^[A-Za-z0-9._~!$'()*,;:@/?[\\]-]{1,${ATTRIBUTE_NAME_MAX}}$`);
/** Headers that carry credentials: their values must never become Redis key parts (use scope key). */
const CREDENTIAL_HEADERS = new Set(["authorization", "proxy-authorization", "x-api-key", "cookie"]);

const isAttributeScope = (scope: Scope): scope is "header" | "query" => scope === "header" || scope === "query";

/** A descriptor rule with an entry without a value: each value Envoy sends is a counter (and a Redis key). */
const countsPerValue = (rule: { scope: Scope; match: { descriptor?: DescriptorEntry[] } }): boolean =>
  rule.scope === "descriptor" && (rule.match.descriptor ?? []).some((entry) => entry.value === undefined);

/**
 * Scope `descriptor` and `match.descriptor` go together; such a rule answers Envoy, which sends no
 * response status to count by (chargeOn).
 */
function checkDescriptorFields(
  rule: { scope: Scope; match: { descriptor?: DescriptorEntry[] }; chargeOn?: readonly string[] },
  ctx: z.RefinementCtx,
): void {
  if (rule.scope === "descriptor" && rule.match.descriptor === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["match", "descriptor"],
      message: "match.descriptor is required for scope descriptor: the Envoy descriptor the rule applies to",
    });
  if (rule.scope !== "descriptor" && rule.match.descriptor !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["match", "descriptor"],
      message: `match.descriptor is only for scope descriptor, not ${rule.scope}`,
    });
  if (rule.scope === "descriptor" && rule.chargeOn !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["chargeOn"],
      message: "chargeOn cannot be set on a descriptor rule: Envoy's rate limit service never sees the response",
    });
}

/** `scopeKey` and `onMissing` belong to the header and query scopes, and only to them. */
function checkAttributeFields(
  rule: { scope: Scope; scopeKey?: string; onMissing?: unknown },
  ctx: z.RefinementCtx,
): void {
  if (!isAttributeScope(rule.scope)) {
    if (rule.scopeKey !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["scopeKey"],
        message: `scopeKey is only for scope header or query, not ${rule.scope}`,
      });
    if (rule.onMissing !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["onMissing"],
        message: `onMissing is only for scope header or query, not ${rule.scope}`,
      });
    return;
  }
  const what = rule.scope === "header" ? "a header name" : "a query parameter name";
  if (rule.scopeKey === undefined || rule.scopeKey === "") {
    ctx.addIssue({
      code: "custom",
      path: ["scopeKey"],
      message: `scopeKey is required for scope ${rule.scope}: ${what}`,
    });
  } else if (rule.scope === "header" && !HEADER_NAME.test(rule.scopeKey)) {
    ctx.addIssue({
      code: "custom",
      path: ["scopeKey"],
      message: `scopeKey must be a header name: 1-${ATTRIBUTE_NAME_MAX} letters, digits and !#$%&'*+.^_\`|~-`,
    });
  } else if (rule.scope === "header" && CREDENTIAL_HEADERS.has(rule.scopeKey.toLowerCase())) {
    ctx.addIssue({
      code: "custom",
      path: ["scopeKey"],
      message: `scopeKey may not be ${rule.scopeKey.toLowerCase()}: it carries credentials (use scope key)`,
    });
  } else if (rule.scope === "query" && !QUERY_NAME.test(rule.scopeKey)) {
    ctx.addIssue({
      code: "custom",
      path: ["scopeKey"],
      message: `scopeKey must be a query parameter name: 1-${ATTRIBUTE_NAME_MAX} characters, no spaces, &, =, #, + or %`,
    });
  }
}

/**
 * A `header`/`query` value is chosen by the client and each one is a Redis key while the rule's
 * state lives (a window, a bucket's refill, a penalty): those are capped at MAX_ATTRIBUTE_WINDOW_MS
 * so the keys a stream of fresh values leaves behind expire within a day (with the subject budget,
 * lib/limiter/subjectBudget.ts, this bounds their memory). Longer periods: scope key, tenant or identifier.
 */
function checkAttributeLifetime(
  rule: {
    scope: Scope;
    algorithm: string;
    windowMs: number;
    limit: number;
    burst?: number;
    blockMs: number;
    match: { descriptor?: DescriptorEntry[] };
  },
  ctx: z.RefinementCtx,
): void {
  if (!isAttributeScope(rule.scope) && !countsPerValue(rule)) return;
  const max = MAX_ATTRIBUTE_WINDOW_MS;
  const why =
    rule.scope === "descriptor"
      ? "for a descriptor rule with an entry without a value: each distinct value keeps its own Redis key that long; give every entry a value to count longer periods"
      : `for scope ${rule.scope}: each distinct value keeps its own Redis key that long; count longer periods with scope key, tenant or identifier`;
  if (rule.windowMs > max)
    ctx.addIssue({ code: "custom", path: ["windowMs"], message: `windowMs must be at most ${max} (1 day) ${why}` });
  if (rule.blockMs > max)
    ctx.addIssue({ code: "custom", path: ["blockMs"], message: `blockMs must be at most ${max} (1 day) ${why}` });
  const burst = rule.burst ?? rule.limit;
  if (
    rule.windowMs <= max &&
    (rule.algorithm === "token_bucket" || rule.algorithm === "gcra") &&
    (rule.windowMs * burst) / rule.limit > max
  )
    ctx.addIssue({
      code: "custom",
      path: ["burst"],
      message: `burst x windowMs / limit (the time an emptied bucket takes to refill) must be at most ${max} (1 day) ${why}`,
    });
}

export const ruleSchema = z
  .object({
    name: z
      .string({ error: "name is required" })
      .regex(
        RULE_NAME_PATTERN,
        `name must be 1-${RULE_NAME_MAX} characters of a-z, 0-9, _ and -, starting with a letter or digit`,
      ),
    scope: z
      .enum(SCOPES, { error: `scope must be one of ${SCOPES.join(", ")}` })
      .default("key")
      .meta({
        description:
          "Whose counter a request charges: `key`, `tenant`, `ip`, `identifier` (POST /api/v1/check only), `header`/`query` (per value, named by scopeKey), `descriptor` (Envoy's rate limit service only, with match.descriptor; not for key overrides).",
      }),
    /** scope header: the header's name; scope query: the parameter's name. */
    scopeKey: z
      .string({ error: "scopeKey must be text" })
      .max(ATTRIBUTE_NAME_MAX, `scopeKey must be at most ${ATTRIBUTE_NAME_MAX} characters`)
      .optional()
      .meta({
        description:
          "Scope `header`: the header's name (compared in lower case; not a credential header). Scope `query`: the query parameter's name. Required for those scopes, refused for the others.",
      }),
    /** scope header or query: the attribute missing or empty, `skip` the rule or `refuse` the request (400). */
    onMissing: z
      .enum(ON_MISSING, { error: `onMissing must be one of ${ON_MISSING.join(", ")}` })
      .optional()
      .meta({
        description:
          "Scope `header`/`query`, when the request lacks the attribute or sends it empty: `skip` (default) the rule does not apply; `refuse` 400 problem+json naming it, nothing charged (a shadow rule only skips).",
      }),
    algorithm: z
      .enum(RULE_ALGORITHMS, { error: `algorithm must be one of ${RULE_ALGORITHMS.join(", ")}` })
      .default("sliding_window"),
    limit: units("limit", 1),
    windowMs: z
      .number({ error: "windowMs must be a number" })
      .int("windowMs must be a whole number of milliseconds")
      .min(MIN_WINDOW_MS, `windowMs must be at least ${MIN_WINDOW_MS} (1 second)`)
      .max(MAX_WINDOW_MS, `windowMs must be at most ${MAX_WINDOW_MS} (${MAX_WINDOW_DAYS} days)`)
      .optional()
      .meta({
        description: `Window length in ms; for token_bucket and gcra the time in which limit units refill. Required unless the rule has \`period\` (then absent). Scopes header and query: at most ${MAX_ATTRIBUTE_WINDOW_MS} (1 day), and so are blockMs and a bucket's refill time (burst x windowMs / limit), since every value a client sends keeps a Redis key that long.`,
      }),
    period: z
      .enum(PERIODS, { error: `period must be one of ${PERIODS.join(", ")}` })
      .optional()
      .meta({
        description:
          "fixed_window only, instead of windowMs: count per calendar period, `day`, `week` (starting Monday) or `month`, in `timeZone`. Headers and Retry-After give the period's real end (month lengths, summer time).",
      }),
    timeZone: timeZoneSchema.optional().meta({
      description:
        "With `period` only: the IANA time zone whose calendar the periods follow (`Europe/Berlin`). Default `UTC`.",
    }),
    burst: units("burst", 1).optional(),
    cost: units("cost", 0).default(1),
    match: matchSchema.default({}),
    blockMs: z
      .number({ error: "blockMs must be a number" })
      .int("blockMs must be a whole number of milliseconds")
      .min(0, "blockMs must be at least 0 (0: no penalty)")
      .max(MAX_BLOCK_MS, `blockMs must be at most ${MAX_BLOCK_MS} (${MAX_WINDOW_DAYS} days)`)
      .default(0)
      .meta({
        description:
          "Penalty in ms: once this rule refuses a client, every request of that client that the rule applies to is refused for this long (429, Retry-After to its end), whatever the counter says. 0: no penalty.",
      }),
    chargeOn: z
      .array(
        z.enum(STATUS_CLASSES, { error: `chargeOn must list status classes among ${STATUS_CLASSES.join(", ")}` }),
        { error: "chargeOn must be a list of status classes" },
      )
      .min(1, "chargeOn must list at least one status class (leave it out to charge at admission)")
      .refine((classes) => new Set(classes).size === classes.length, "chargeOn must not list a status class twice")
      .optional()
      .meta({
        description:
          "Count by response (gateway): only answers whose status class is listed count. The cost is reserved at admission (a request that would pass the limit is refused, 429) and given back once the answer's class is known not to be listed, so at most `limit` units are ever in flight or spent per window. Unset: every admitted request counts. See docs/rules.md for echo, check and authorize.",
      }),
    failMode: z.enum(FAIL_MODES, { error: `failMode must be one of ${FAIL_MODES.join(", ")}` }).default("open"),
    mode: z.enum(RULE_MODES, { error: `mode must be one of ${RULE_MODES.join(", ")}` }).default("enforce"),
  })
  .strict()
  .refine((rule) => rule.scope !== "identifier" || rule.chargeOn === undefined, {
    path: ["chargeOn"],
    message:
      "chargeOn cannot be set on an identifier rule: POST /api/v1/check charges it, and its answer is not the caller's response",
  })
  .refine((rule) => rule.algorithm !== "sliding_log" || rule.limit <= MAX_SLIDING_LOG_LIMIT, {
    path: ["limit"],
    message: `limit must be at most ${MAX_SLIDING_LOG_LIMIT.toLocaleString("en")} for sliding_log (every decision reads the whole log); use sliding_window for larger limits`,
  })
  .superRefine((rule, ctx) => {
    if (rule.algorithm !== "concurrency") return;
    // A slot is held until the request is over: these combinations have no meaning (docs/rules.md).
    for (const [field, refused, message] of CONCURRENCY_REFUSALS) {
      if (refused(rule)) ctx.addIssue({ code: "custom", path: [field], message });
    }
  })
  .superRefine(checkPeriodFields)
  .superRefine(checkAttributeFields)
  .superRefine(checkDescriptorFields)
  // A calendar rule's lifetime is checked by checkPeriodFields (its windowMs is absent).
  .superRefine((rule, ctx) => checkAttributeLifetime({ ...rule, windowMs: rule.windowMs ?? 0 }, ctx))
  .transform(({ scopeKey, onMissing, timeZone, ...rule }) => {
    const out: typeof rule & { burst: number; scopeKey?: string; onMissing?: OnMissing; timeZone?: string } = {
      ...rule,
      burst: rule.burst ?? rule.limit,
    };
    if (rule.period !== undefined) out.timeZone = timeZone ?? "UTC";
    if (isAttributeScope(rule.scope) && scopeKey !== undefined) {
      out.scopeKey = rule.scope === "header" ? scopeKey.toLowerCase() : scopeKey;
      out.onMissing = onMissing ?? "skip";
    }
    return out;
  });

/**
 * A rule counts per `windowMs` or per calendar `period` (fixed_window only), never both; `timeZone`
 * goes with `period`.
 */
function checkPeriodFields(
  rule: {
    algorithm: string;
    scope: Scope;
    windowMs?: number;
    period?: string;
    timeZone?: string;
    match: { descriptor?: DescriptorEntry[] };
  },
  ctx: z.RefinementCtx,
): void {
  if (rule.period === undefined) {
    if (rule.windowMs === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["windowMs"],
        message: "windowMs is required (or, for fixed_window, period)",
      });
    if (rule.timeZone !== undefined)
      ctx.addIssue({
        code: "custom",
        path: ["timeZone"],
        message: "timeZone goes with period: leave it out or set period",
      });
    return;
  }
  if (rule.algorithm !== "fixed_window")
    ctx.addIssue({
      code: "custom",
      path: ["period"],
      message: `period is only for fixed_window, not ${rule.algorithm} (use windowMs)`,
    });
  if (rule.windowMs !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["windowMs"],
      message: "windowMs must be left out when period is set (a rule counts per window or per calendar period)",
    });
  // Each value a client sends would keep a Redis key a whole period (a day may last 25 hours).
  if (isAttributeScope(rule.scope) || countsPerValue(rule))
    ctx.addIssue({
      code: "custom",
      path: ["period"],
      message: `period is not available for scope ${rule.scope} counted per value: each value would keep its own Redis key for a whole period; count calendar periods with scope key, tenant or identifier`,
    });
}

/** The rule's calendar period, or undefined for a rule counted per windowMs. */
export function rulePeriod(rule: { period?: CalendarPeriod["unit"]; timeZone?: string }): CalendarPeriod | undefined {
  return rule.period === undefined ? undefined : { unit: rule.period, timeZone: rule.timeZone ?? "UTC" };
}

/**
 * The rule's window in ms: windowMs, or for a calendar rule its period's longest length (what a
 * window-length bound or a never-passing request's retry needs).
 */
export function ruleWindowMs(rule: { windowMs?: number; period?: CalendarPeriod["unit"] }): number {
  if (rule.windowMs !== undefined) return rule.windowMs;
  return rule.period === undefined ? MIN_WINDOW_MS : PERIOD_MAX_MS[rule.period];
}

/**
 * What a concurrency rule cannot be: a request takes one slot (cost 1); a penalty would outlive
 * the requests it is about; the local fail mode could not give a slot back on the instance that
 * did not take it; an identifier (POST /api/v1/check) has no request whose end would release it.
 */
const CONCURRENCY_REFUSALS: [
  string,
  (rule: { cost: number; blockMs: number; failMode: string; scope: string; chargeOn?: readonly string[] }) => boolean,
  string,
][] = [
  ["cost", (rule) => rule.cost !== 1, "cost must be 1 for concurrency (each request in flight holds one slot)"],
  [
    "blockMs",
    (rule) => rule.blockMs !== 0,
    "blockMs must be 0 for concurrency (no penalty: a slot frees when a request ends)",
  ],
  [
    "failMode",
    (rule) => rule.failMode === "local",
    "failMode local is not available for concurrency (a slot taken in one instance's memory could not be given back elsewhere); use open or closed",
  ],
  [
    "scope",
    (rule) => rule.scope === "identifier",
    "scope identifier is not available for concurrency (POST /api/v1/check has no request end to release a slot at)",
  ],
  [
    "scope",
    (rule) => rule.scope === "descriptor",
    "scope descriptor is not available for concurrency (Envoy's rate limit service is never told when a request ends)",
  ],
  [
    "chargeOn",
    (rule) => rule.chargeOn !== undefined,
    "chargeOn is not available for concurrency (a slot is held while the request is in flight, whatever its answer)",
  ],
];

export type RuleInput = z.input<typeof ruleSchema>;
export type Rule = z.output<typeof ruleSchema>;

/** A list of rules as one owner holds them: names unique. */
export const ruleListSchema = z
  .array(ruleSchema)
  .max(MAX_RULES_PER_OWNER, `at most ${MAX_RULES_PER_OWNER} rules per owner`)
  .superRefine((rules, ctx) => {
    const seen = new Set<string>();
    rules.forEach((rule, i) => {
      if (seen.has(rule.name))
        ctx.addIssue({ code: "custom", path: [i, "name"], message: `duplicate rule name "${rule.name}"` });
      seen.add(rule.name);
    });
  });

/** The limiter's view of a stored rule. `ref` names its counters (see lib/limiter/keys.ts). */
export function toLimiterRule(rule: Rule, ref: string = rule.name): LimiterRule {
  return {
    name: rule.name,
    ref,
    scope: rule.scope,
    algorithm: rule.algorithm,
    limit: rule.limit,
    windowMs: ruleWindowMs(rule),
    ...(rule.period !== undefined ? { period: rulePeriod(rule) } : {}),
    burst: rule.burst,
    cost: rule.cost,
    blockMs: rule.blockMs,
    ...(rule.chargeOn ? { chargeOn: [...rule.chargeOn].sort() } : {}),
    failMode: rule.failMode,
    mode: rule.mode,
    ...(isAttributeScope(rule.scope) && rule.scopeKey !== undefined
      ? {
          attribute: {
            source: rule.scope,
            name: rule.scopeKey,
            onMissing: rule.onMissing ?? "skip",
            id: `${rule.scope}:${rule.scopeKey}`,
          },
        }
      : {}),
  };
}
