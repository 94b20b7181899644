/** A tenant's tiers (plans) and each tier's override rules: /api/admin/tenants/{tenantId}/tiers/... */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { tierRulesSchema } from "../../admin/schemas";
import { tierNameSchema } from "../../../policy/tiers/tierName";
import { tierSchema } from "../../../policy/tiers/tierAnswers";
import { adminOperation, errors, jsonAnswer, jsonBody, noContent, tenantIdPath } from "../common";
import { storedRuleListSchema } from "../../../policy/rules/ruleAnswers";

const tierPath = tenantIdPath.extend({ tier: tierNameSchema });

const TIER_MEANING =
  "A tier's rules mean what a key's override rules mean: one named like a tenant rule replaces it, others are added. A key is in the tier its `tier` names, a JWT caller in the tier its `tierClaim` claim names; precedence: tenant rules, then the tier's, then the key's own.";

export const tierPaths: ZodOpenApiPathsObject = {
  "/api/admin/tenants/{tenantId}/tiers": {
    get: adminOperation("read", {
      operationId: "listTiers",
      tags: ["Rules"],
      summary: "The tenant's tiers",
      description: `Every tier that has rules or is named by a live key, by name. ${TIER_MEANING}`,
      requestParams: { path: tenantIdPath },
      responses: { "200": jsonAnswer("The tenant's tiers.", z.array(tierSchema)), ...errors("not_found") },
    }),
  },
  "/api/admin/tenants/{tenantId}/tiers/{tier}/rules": {
    get: adminOperation("read", {
      operationId: "getTierRules",
      tags: ["Rules"],
      summary: "A tier's rules",
      description: "An empty list for a tier without rules.",
      requestParams: { path: tierPath },
      responses: {
        "200": jsonAnswer("The tier's rules.", storedRuleListSchema),
        ...errors("not_found", "invalid"),
      },
    }),
    put: adminOperation("write", {
      operationId: "putTierRules",
      tags: ["Rules"],
      summary: "Replace a tier's rules",
      description: `${TIER_MEANING} Scope \`tenant\`, \`identifier\` or \`descriptor\` is a 422. Replaces the whole list atomically; in force on every instance within 1 s of the 200. Audited.`,
      requestParams: { path: tierPath },
      requestBody: jsonBody(tierRulesSchema),
      responses: {
        "200": jsonAnswer("The tier's rules now in force.", storedRuleListSchema),
        ...errors("not_found", "invalid"),
      },
    }),
    delete: adminOperation("write", {
      operationId: "deleteTierRules",
      tags: ["Rules"],
      summary: "Remove a tier's rules",
      description:
        "Keys in the tier keep naming it and get the tenant's rules (and their own) until it has rules again. Audited; in force on every instance within 1 s.",
      requestParams: { path: tierPath },
      responses: { "204": noContent("Removed (or there were none)."), ...errors("not_found", "invalid") },
    }),
  },
};
