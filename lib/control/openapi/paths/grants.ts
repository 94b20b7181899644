/** Grants (issue 33): extra units for one key, one JWT subject or each caller of a tier on a rule, until a date. */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { callerGrantQuerySchema } from "../../admin/querySchemas";
import { callerGrantSchema, grantSchema } from "../../admin/schemas";
import { callerGrantViewSchema, grantViewSchema } from "../../admin/grantAnswers";
import { adminOperation, errors, jsonAnswer, jsonBody, keyIdPath, noContent, tenantIdPath } from "../common";

const grantIdPath = keyIdPath.extend({ grantId: z.string().regex(/^[a-z0-9]{1,64}$/) });
const tenantGrantIdPath = tenantIdPath.extend({ grantId: z.string().regex(/^[a-z0-9]{1,64}$/) });

export const grantPaths: ZodOpenApiPathsObject = {
  "/api/admin/keys/{keyId}/grants": {
    get: adminOperation("read", {
      operationId: "listGrants",
      tags: ["Quota"],
      summary: "A key's running grants, soonest end first",
      requestParams: { path: keyIdPath },
      responses: { "200": jsonAnswer("The grants still running.", z.array(grantViewSchema)), ...errors("not_found") },
    }),
    post: adminOperation("write", {
      operationId: "createGrant",
      tags: ["Quota"],
      summary: "Give a key extra units on a rule until a date",
      description:
        "While the grant runs, the key's limit on `rule` (absent: every `key`-scoped rule that applies to it) is raised by `units` (a bucket's burst too); grants add up, and the counters stay the same, so a key at its limit gets exactly `units` more. `until` defaults to the end of the rule's current window or calendar period (for every rule: the latest). In force on every instance within 1 s; ends by itself at `until`. Audited (`key.grant`); reverting deletes it. A rule that is not a key-scoped rule of the key: 422; a revoked key: 409.",
      requestParams: { path: keyIdPath },
      requestBody: jsonBody(grantSchema),
      responses: {
        "201": jsonAnswer("The grant.", grantViewSchema),
        ...errors("not_found", "invalid", "conflict"),
      },
    }),
  },
  "/api/admin/keys/{keyId}/grants/{grantId}": {
    delete: adminOperation("write", {
      operationId: "deleteGrant",
      tags: ["Quota"],
      summary: "End a grant now",
      description: "The key's limits are as without it on every instance within 1 s. Audited (`key.grant.delete`).",
      requestParams: { path: grantIdPath },
      responses: { "204": noContent("Ended."), ...errors("not_found") },
    }),
  },
  "/api/admin/tenants/{tenantId}/grants": {
    get: adminOperation("read", {
      operationId: "listCallerGrants",
      tags: ["Quota"],
      summary: "The tenant's running JWT-subject and tier grants, soonest end first",
      requestParams: { path: tenantIdPath, query: callerGrantQuerySchema },
      responses: {
        "200": jsonAnswer("The grants still running.", z.array(callerGrantViewSchema)),
        ...errors("not_found", "invalid"),
      },
    }),
    post: adminOperation("write", {
      operationId: "createCallerGrant",
      tags: ["Quota"],
      summary: "Give a JWT subject, or each caller of a tier, extra units on a rule until a date",
      description:
        "Exactly one of `subject` (a JWT caller's verified subject: its `key` rules are counted per subject) and `tier`. While the grant runs, the caller's limit on `rule` (absent: every `key`-scoped rule that applies to it) is raised by `units`, as a key's grant does: for a tier, EACH caller of the tier (each key of it, each JWT caller whose tier claim names it) gets `units` more. Grants add up with each other and with key grants. `until` defaults to the end of the rule's current window or calendar period. In force on every instance within 1 s; ends by itself at `until`. Audited (`tenant.grant`); reverting deletes it. A rule that is not a key-scoped rule that can apply to the caller: 422.",
      requestParams: { path: tenantIdPath },
      requestBody: jsonBody(callerGrantSchema),
      responses: { "201": jsonAnswer("The grant.", callerGrantViewSchema), ...errors("not_found", "invalid") },
    }),
  },
  "/api/admin/tenants/{tenantId}/grants/{grantId}": {
    delete: adminOperation("write", {
      operationId: "deleteCallerGrant",
      tags: ["Quota"],
      summary: "End a JWT subject's or a tier's grant now",
      description:
        "The callers' limits are as without it on every instance within 1 s. Audited (`tenant.grant.delete`).",
      requestParams: { path: tenantGrantIdPath },
      responses: { "204": noContent("Ended."), ...errors("not_found") },
    }),
  },
};
