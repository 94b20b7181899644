/**
 * What a caller names to charge an `identifier` rule: the body of POST /api/v1/check
 * (`{ identifier, rule, cost? }`) and the identifier alone (an admin query's `identifier`, the
 * counter reset of one identifier). One schema for the data plane that reads the body
 * (lib/dataplane/routes.ts), the control plane that reads the query (control/admin/querySchemas.ts)
 * and the OpenAPI document that describes it. Browser-safe: zod only.
 */
import { z } from "zod";
import { IDENTIFIER_MAX, MAX_UNITS, RULE_NAME_MAX } from "../../common/fieldLimits";
import { plainText } from "../../common/textInput";

/**
 * A caller-given identifier (a Redis counter key part): any string of 1 to IDENTIFIER_MAX characters, as the
 * contract says, provided it is well-formed Unicode (a lone surrogate would reach Redis as U+FFFD,
 * so two identifiers would share one counter).
 */
export const identifierSchema = plainText(
  z
    .string({ error: "identifier is required and must be text" })
    .min(1, "identifier must not be empty")
    .max(IDENTIFIER_MAX, `identifier must be at most ${IDENTIFIER_MAX} characters`),
  "identifier",
  { allowControls: true },
);

export const checkRequestSchema = z
  .object({
    identifier: identifierSchema,
    rule: z
      .string({ error: "rule is required and must be a rule name" })
      .min(1, "rule must not be empty")
      .max(RULE_NAME_MAX, `rule must be at most ${RULE_NAME_MAX} characters`),
    cost: z
      .number({ error: "cost must be a number" })
      .int("cost must be a whole number")
      .min(0, "cost must be at least 0")
      .max(MAX_UNITS, `cost must be at most ${MAX_UNITS.toLocaleString("en")}`)
      .optional(),
  })
  .strict();

export type CheckRequest = z.output<typeof checkRequestSchema>;
