/**
 * The body of PUT .../rules: the whole new list, as a JSON array of rules or as `{ "rules": [...] }`.
 * Field paths in 422 messages are those of the array (`0.limit`), prefixed `rules.` for the object form.
 */
import type { z } from "zod";
import { AppError } from "../../http/errors";
import { parseInput } from "../../http/validate";
import type { Rule } from "../../policy/rules/ruleSchema";

export function parseRuleList(body: unknown, schema: z.ZodType<Rule[], unknown>): Rule[] {
  if (Array.isArray(body)) return parseInput(schema, body);
  if (body && typeof body === "object" && "rules" in body) {
    const extra = Object.keys(body).filter((k) => k !== "rules");
    if (extra.length > 0)
      throw new AppError("invalid", `Unknown field ${JSON.stringify(extra[0])}.`, {
        errors: { [extra[0]!]: ["unknown field"] },
      });
    return parseInput(schema, (body as { rules: unknown }).rules, ["rules"]);
  }
  throw new AppError("invalid", 'The body must be a JSON array of rules (or { "rules": [...] }).', {
    errors: { "": ["expected an array of rules"] },
  });
}
