/**
 * The one schema of an `identifier` rule's overrides (PUT /api/admin/tenants/{tenantId}/rules/{rule}/overrides),
 * shared by the admin route and the dashboard's editor: a list of
 * `{ identifier, limit, windowMs?, burst? }` where `identifier` is exact (`acme`) or ends in one
 * `*` (a prefix: `enterprise:*`). At most MAX_OVERRIDES entries, identifiers unique. Omitted
 * `windowMs` keeps the rule's; omitted `burst` is the override's `limit` (as a rule's is).
 * Browser-safe: zod only.
 */
import { z } from "zod";
import {
  IDENTIFIER_MAX,
  MAX_OVERRIDES,
  MAX_UNITS,
  MAX_WINDOW_DAYS,
  MAX_WINDOW_MS,
  MIN_WINDOW_MS,
} from "../../common/fieldLimits";
import { plainText } from "../../common/textInput";

const units = (what: string) =>
  z
    .number({ error: `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .min(1, `${what} must be at least 1`)
    .max(MAX_UNITS, `${what} must be at most ${MAX_UNITS.toLocaleString("en")}`);

/** Whether an override's identifier is a prefix (`enterprise:*`) rather than one identifier. */
export const isWildcard = (identifier: string): boolean => identifier.endsWith("*");

export const identifierOverrideSchema = z
  .object({
    identifier: plainText(
      z
        .string({ error: "identifier is required and must be text" })
        .min(1, "identifier must not be empty")
        .max(IDENTIFIER_MAX, `identifier must be at most ${IDENTIFIER_MAX} characters`),
      "identifier",
    )
      .refine((id) => id !== "*", "identifier * alone would match everyone: change the rule's own limit instead")
      .refine((id) => !id.slice(0, -1).includes("*"), "identifier may hold * only at its end (a prefix: enterprise:*)")
      .meta({
        description:
          "An exact identifier (`acme`), or a prefix ending in `*` (`enterprise:*`). Exact beats the longest matching prefix, which beats the rule.",
      }),
    limit: units("limit"),
    windowMs: z
      .number({ error: "windowMs must be a number" })
      .int("windowMs must be a whole number of milliseconds")
      .min(MIN_WINDOW_MS, `windowMs must be at least ${MIN_WINDOW_MS} (1 second)`)
      .max(MAX_WINDOW_MS, `windowMs must be at most ${MAX_WINDOW_MS} (${MAX_WINDOW_DAYS} days)`)
      .optional()
      .meta({ description: "Default: the rule's window." }),
    burst: units("burst")
      .optional()
      .meta({ description: "Capacity for token_bucket and gcra; default: this override's limit." }),
  })
  .strict();

export const identifierOverrideListSchema = z
  .array(identifierOverrideSchema)
  .max(MAX_OVERRIDES, `at most ${MAX_OVERRIDES.toLocaleString("en")} overrides per rule`)
  .superRefine((overrides, ctx) => {
    const seen = new Set<string>();
    overrides.forEach((o, i) => {
      if (seen.has(o.identifier))
        ctx.addIssue({ code: "custom", path: [i, "identifier"], message: `duplicate identifier "${o.identifier}"` });
      seen.add(o.identifier);
    });
  });

export type IdentifierOverride = z.output<typeof identifierOverrideSchema>;
export type IdentifierOverrideInput = z.input<typeof identifierOverrideSchema>;

/** GET/PUT .../rules/{rule}/overrides: the rule's overrides (the answer's one description). */
export const ruleOverridesSchema = z
  .object({ rule: z.string(), overrides: z.array(identifierOverrideSchema) })
  .meta({ description: "The rule's overrides, in the order given." });
export type RuleOverrides = z.infer<typeof ruleOverridesSchema>;
