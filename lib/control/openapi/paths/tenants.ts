/** Tenants, their API keys and their rules: /api/admin/tenants/... */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { tenantDetailSchema } from "../../admin/answers";
import { tenantQuotaSchema } from "../../admin/quotaAnswers";
import { createKeySchema, createTenantSchema, tenantRulesSchema } from "../../admin/schemas";
import { createdKeySchema, keySchema } from "../../../policy/keys/keyAnswers";
import { tenantListItemSchema, tenantSchema } from "../../../policy/tenants/tenantAnswers";
import { adminOperation, errors, jsonAnswer, jsonBody, tenantIdPath } from "../common";
import { storedRuleListSchema } from "../../../policy/rules/ruleAnswers";

export const tenantPaths: ZodOpenApiPathsObject = {
  "/api/admin/tenants": {
    get: adminOperation("read", {
      operationId: "listTenants",
      tags: ["Tenants"],
      summary: "List tenants",
      responses: {
        "200": jsonAnswer(
          "Every tenant, with its count of live keys (neither revoked nor expired).",
          z.array(tenantListItemSchema),
        ),
      },
    }),
    post: adminOperation("write", {
      operationId: "createTenant",
      tags: ["Tenants"],
      summary: "Create a tenant",
      requestBody: jsonBody(createTenantSchema),
      responses: { "201": jsonAnswer("The new tenant.", tenantSchema), ...errors("invalid", "conflict") },
    }),
  },
  "/api/admin/tenants/{tenantId}": {
    get: adminOperation("read", {
      operationId: "getTenant",
      tags: ["Tenants"],
      summary: "Get a tenant",
      requestParams: { path: tenantIdPath },
      responses: {
        "200": jsonAnswer("The tenant, with its gateway upstream (null when none).", tenantDetailSchema),
        ...errors("not_found"),
      },
    }),
  },
  "/api/admin/tenants/{tenantId}/keys": {
    get: adminOperation("read", {
      operationId: "listKeys",
      tags: ["API keys"],
      summary: "List a tenant's API keys (never their secrets)",
      requestParams: { path: tenantIdPath },
      responses: {
        "200": jsonAnswer("The tenant's keys, revoked ones included.", z.array(keySchema)),
        ...errors("not_found"),
      },
    }),
    post: adminOperation("write", {
      operationId: "createKey",
      tags: ["API keys"],
      summary: "Issue an API key",
      description: "The answer is the only time the full key is shown.",
      requestParams: { path: tenantIdPath },
      requestBody: jsonBody(createKeySchema),
      responses: {
        "201": jsonAnswer("The new key, with its secret.", createdKeySchema),
        ...errors("not_found", "invalid"),
      },
    }),
  },
  "/api/admin/tenants/{tenantId}/rules": {
    get: adminOperation("read", {
      operationId: "getTenantRules",
      tags: ["Rules"],
      summary: "The tenant's rules",
      requestParams: { path: tenantIdPath },
      responses: { "200": jsonAnswer("The tenant's rules.", storedRuleListSchema), ...errors("not_found") },
    }),
    put: adminOperation("write", {
      operationId: "putTenantRules",
      tags: ["Rules"],
      summary: "Replace the tenant's rules",
      description: "Replaces the whole list atomically; in force on every instance within 1 s of the 200. Audited.",
      requestParams: { path: tenantIdPath },
      requestBody: jsonBody(tenantRulesSchema),
      responses: {
        "200": jsonAnswer("The rules now in force.", storedRuleListSchema),
        ...errors("not_found", "invalid"),
      },
    }),
  },
  "/api/admin/tenants/{tenantId}/quota": {
    get: adminOperation("read", {
      operationId: "getTenantQuota",
      tags: ["Quota"],
      summary: "Remaining quota of a tenant's rules and keys",
      requestParams: { path: tenantIdPath },
      responses: { "200": jsonAnswer("Quota now.", tenantQuotaSchema), ...errors("not_found", "limiter_unavailable") },
    }),
  },
};
