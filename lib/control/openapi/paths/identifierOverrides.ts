/** Per-identifier overrides of an `identifier` rule, /api/admin/tenants/{tenantId}/rules/{rule}/overrides (matching: lib/policy/overrides/overrideMatcher.ts). */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { MAX_OVERRIDES, RULE_NAME_PATTERN } from "../../../common/fieldLimits";
import { identifierOverrideListSchema, ruleOverridesSchema } from "../../../policy/overrides/overrideSchema";
import { adminOperation, errors, jsonAnswer, jsonBody, tenantIdPath } from "../common";

const rulePath = tenantIdPath.extend({
  rule: z
    .string()
    .regex(RULE_NAME_PATTERN)
    .meta({ description: "The name of an `identifier`-scope rule of the tenant." }),
});

const MATCHING = `POST /api/v1/check charges an identifier under its exact override, else the override of the longest matching prefix (\`enterprise:*\`), else the rule. An override shares the identifier's counter with the rule (changing it applies to what was counted so far). At most ${MAX_OVERRIDES.toLocaleString("en")} per rule. Replacing the tenant's rules without this identifier rule deletes its overrides.`;

export const identifierOverridePaths: ZodOpenApiPathsObject = {
  "/api/admin/tenants/{tenantId}/rules/{rule}/overrides": {
    get: adminOperation("read", {
      operationId: "getIdentifierOverrides",
      tags: ["Tenants"],
      summary: "Per-identifier limits of an identifier rule",
      description: `${MATCHING} Unknown tenant or rule, or a rule of another scope: 404.`,
      requestParams: { path: rulePath },
      responses: { "200": jsonAnswer("The overrides.", ruleOverridesSchema), ...errors("not_found") },
    }),
    put: adminOperation("write", {
      operationId: "putIdentifierOverrides",
      tags: ["Tenants"],
      summary: "Replace the per-identifier limits of an identifier rule",
      description: `Replaces the whole list; invalid input (a duplicate identifier, a \`*\` not at the end, more than ${MAX_OVERRIDES.toLocaleString("en")}) is a 422 per field. Audited (\`overrides.replace\`, revertible); in force on every instance within 1 s. ${MATCHING}`,
      requestParams: { path: rulePath },
      requestBody: jsonBody(identifierOverrideListSchema),
      responses: {
        "200": jsonAnswer("The overrides as stored.", ruleOverridesSchema),
        ...errors("not_found", "invalid"),
      },
    }),
  },
};
