/** Grants (issue 33): extra units for one key on a rule, until a date. */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { grantSchema } from "../../admin/schemas";
import { grantViewSchema } from "../../admin/grantAnswers";
import { adminOperation, errors, jsonAnswer, jsonBody, keyIdPath, noContent } from "../common";

const grantIdPath = keyIdPath.extend({ grantId: z.string().regex(/^[a-z0-9]{1,64}$/) });

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
};
