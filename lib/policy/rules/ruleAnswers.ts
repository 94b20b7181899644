/**
 * Rules as the API answers them: the request schema (lib/policy/rules/ruleSchema.ts) with its defaults
 * filled and `burst` always present. Derived from the schema that validates rules, never
 * restated: the transform that fills `burst` cannot be rendered, so the output view is the
 * schema's object part with `burst` required.
 */
import { z } from "zod";
import { ruleSchema } from "./ruleSchema";

export const storedRuleSchema = ruleSchema.in
  .required({ burst: true })
  .meta({ description: "A rule as stored, every default filled in." });

export const storedRuleListSchema = z.array(storedRuleSchema);
