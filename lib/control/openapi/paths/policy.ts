/** Policy as code: a tenant's whole policy as one document, /api/admin/tenants/{tenantId}/policy. */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { policyDocumentSchema, policyQuerySchema } from "../../policyDocument/policyDocumentSchema";
import { adminOperation, errors, jsonAnswer, jsonBody, tenantIdPath } from "../common";
import { appliedPolicySchema, exportedPolicySchema } from "../../policyDocument/policyAnswers";

const ETAG_HEADER = {
  ETag: {
    description: "A hash of the document's canonical form: send it back as `If-Match` to apply only over this policy.",
    schema: { type: "string" as const },
  },
};

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
        "200": { ...jsonAnswer("What changed.", appliedPolicySchema), headers: ETAG_HEADER },
        ...errors("not_found", "invalid", "conflict", "precondition_failed"),
      },
    }),
  },
};
