/** Policy as code: a tenant's whole policy as one document, /api/admin/tenants/{tenantId}/policy. */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { policyDocumentSchema, policyQuerySchema } from "../../policyDocument/policyDocumentSchema";
import { adminOperation, errors, jsonAnswer, jsonBody, tenantIdPath } from "../common";
import { storedRuleSchema } from "../../../policy/rules/ruleAnswers";
import { billingSettingsSchema } from "../../alerts/alertSchema";

const ETAG_HEADER = {
  ETag: {
    description: "A hash of the document's canonical form: send it back as `If-Match` to apply only over this policy.",
    schema: { type: "string" as const },
  },
};

const exportedPolicySchema = z.object({
  rules: z.array(storedRuleSchema).meta({ description: "The tenant's rules." }),
  keys: z.record(z.string(), z.object({ tier: z.string().nullable(), rules: z.array(storedRuleSchema) })).meta({
    description:
      "Every live API key by name (by id where two live keys share a name): its tier and override rules. Never its secret.",
  }),
  tiers: z.record(z.string(), z.array(storedRuleSchema)).meta({ description: "Tiers with rules, by name." }),
  overrides: z
    .record(
      z.string(),
      z.array(
        z.object({
          identifier: z.string(),
          limit: z.number().int(),
          windowMs: z.number().int().optional(),
          burst: z.number().int().optional(),
        }),
      ),
    )
    .meta({ description: "Identifier overrides by identifier rule name (rules with overrides only)." }),
  access: z.object({ allow: z.array(z.string()), deny: z.array(z.string()) }),
  identity: z
    .record(z.string(), z.unknown())
    .meta({ description: "`{ hosts, apiKeys, jwt, anonymous }` as GET .../identity answers it." }),
  upstream: z
    .object({ url: z.string(), timeoutMs: z.number().int(), signRequests: z.boolean() })
    .nullable()
    .meta({ description: "The gateway upstream, never its signing secret; null: none." }),
  alerts: z
    .object({
      webhookUrlHint: z.string(),
      refusalRate: z.record(z.string(), z.number()).nullable(),
      clientLimit: z.record(z.string(), z.number()).nullable(),
      billing: billingSettingsSchema.nullable(),
    })
    .nullable()
    .meta({
      description:
        "Alert conditions; the webhook URL only as its hint (it is a secret), never the signing secret; null: none.",
    }),
});

const appliedSchema = z.object({
  changed: z.array(z.string()).meta({
    description:
      "What changed (or would, for a dry run): `rules`, `tiers.<tier>`, `keys.<name>.tier`, `keys.<name>.rules`, `overrides.<rule>`, `access`, `identity`, `upstream`, `alerts`. Empty: the document is the current policy; nothing was written or audited.",
  }),
  dryRun: z.boolean(),
});

export const policyPaths: ZodOpenApiPathsObject = {
  "/api/admin/tenants/{tenantId}/policy": {
    get: adminOperation("read", {
      operationId: "exportPolicy",
      tags: ["Tenants"],
      summary: "Export the tenant's policy as one document",
      description:
        "Everything that shapes the tenant's limits (rules, keys' tiers and rules, tiers, identifier overrides, access lists, identity, upstream, alerts), never a secret. The `ETag` header hashes the document (docs/operations.md, GitOps).",
      requestParams: { path: tenantIdPath },
      responses: {
        "200": { ...jsonAnswer("The policy document.", exportedPolicySchema), headers: ETAG_HEADER },
        ...errors("not_found"),
      },
    }),
    put: adminOperation("write", {
      operationId: "applyPolicy",
      tags: ["Tenants"],
      summary: "Apply a policy document",
      description:
        "Makes the tenant's policy what the document says, in one transaction; each changed part is audited as its own route audits it, an unchanged part is not touched. Keys are created through the API, not declared: a key name that matches no live key is a 422; a live key the document leaves out keeps its policy. Without `alerts.webhookUrl` the stored URL is kept. `If-Match` with an ETag that is no longer current is a 412. In force everywhere within 1 s.",
      requestParams: { path: tenantIdPath, query: policyQuerySchema },
      requestBody: jsonBody(policyDocumentSchema),
      responses: {
        "200": { ...jsonAnswer("What changed.", appliedSchema), headers: ETAG_HEADER },
        ...errors("not_found", "invalid", "conflict", "precondition_failed"),
      },
    }),
  },
};
