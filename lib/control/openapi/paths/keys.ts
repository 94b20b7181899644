/** One API key: details, revocation, override rules, quota, recent decisions: /api/admin/keys/... */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { keyQuotaQuerySchema } from "../../admin/querySchemas";
import { keyQuotaSchema } from "../../admin/quotaAnswers";
import { keyPatchSchema, keyRulesSchema } from "../../admin/schemas";
import { decisionsParamsSchema } from "../../../monitoring/query/monitoringParams";
import { recentDecisionsSchema } from "../../../monitoring/query/monitoringAnswers";
import { adminOperation, errors, jsonAnswer, jsonBody, keyIdPath, noContent } from "../common";
import { keyDetailsSchema, keySchema } from "../../../policy/keys/keyAnswers";
import { storedRuleListSchema } from "../../../policy/rules/ruleAnswers";

export const keyPaths: ZodOpenApiPathsObject = {
  "/api/admin/keys/{keyId}": {
    get: adminOperation("read", {
      operationId: "getKey",
      tags: ["API keys"],
      summary: "A key with its tenant's rules, its overrides and the effective merge",
      requestParams: { path: keyIdPath },
      responses: { "200": jsonAnswer("The key.", keyDetailsSchema), ...errors("not_found") },
    }),
    patch: adminOperation("write", {
      operationId: "patchKey",
      tags: ["API keys"],
      summary: "Set or clear a key's expiry or tier",
      description:
        "`expiresAt` (ISO 8601 with a zone) or null: any instant may be set, a past one expires the key at once, and another edit can undo it. `tier`: a tier name (it need not have rules yet) or null for none. Each change audited; in force on every instance within 1 s. A revoked key: 409.",
      requestParams: { path: keyIdPath },
      requestBody: jsonBody(keyPatchSchema),
      responses: { "200": jsonAnswer("The key.", keySchema), ...errors("not_found", "invalid", "conflict") },
    }),
    delete: adminOperation("write", {
      operationId: "revokeKey",
      tags: ["API keys"],
      summary: "Revoke a key",
      description: "The key is refused (401) on every instance within 1 s. Audited.",
      requestParams: { path: keyIdPath },
      responses: { "204": noContent("Revoked (or already revoked)."), ...errors("not_found") },
    }),
  },
  "/api/admin/keys/{keyId}/rules": {
    get: adminOperation("read", {
      operationId: "getKeyRules",
      tags: ["Rules"],
      summary: "The key's override rules",
      requestParams: { path: keyIdPath },
      responses: { "200": jsonAnswer("The key's override rules.", storedRuleListSchema), ...errors("not_found") },
    }),
    put: adminOperation("write", {
      operationId: "putKeyRules",
      tags: ["Rules"],
      summary: "Replace the key's override rules",
      description:
        "A key rule named like a tenant rule replaces it for this key; others are added. Scope `tenant` or `identifier` is a 422.",
      requestParams: { path: keyIdPath },
      requestBody: jsonBody(keyRulesSchema),
      responses: {
        "200": jsonAnswer("The override rules now in force.", storedRuleListSchema),
        ...errors("not_found", "invalid"),
      },
    }),
  },
  "/api/admin/keys/{keyId}/quota": {
    get: adminOperation("read", {
      operationId: "getKeyQuota",
      tags: ["Quota"],
      summary: "Remaining quota of a key's rules",
      requestParams: { path: keyIdPath, query: keyQuotaQuerySchema },
      responses: {
        "200": jsonAnswer("Quota now.", keyQuotaSchema),
        ...errors("not_found", "invalid", "limiter_unavailable"),
      },
    }),
  },
  "/api/admin/keys/{keyId}/decisions": {
    get: adminOperation("read", {
      operationId: "getKeyDecisions",
      tags: ["Monitoring"],
      summary: "A key's recent decisions",
      requestParams: { path: keyIdPath, query: decisionsParamsSchema },
      responses: {
        "200": jsonAnswer("Recent decisions.", recentDecisionsSchema),
        ...errors("not_found", "invalid", "limiter_unavailable"),
      },
    }),
  },
};
