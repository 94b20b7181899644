/** Counter resets: a key's counters, one identifier's counters of an identifier rule. */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { identifierResetQuerySchema } from "../../admin/querySchemas";
import { RULE_NAME_PATTERN } from "../../../common/fieldLimits";
import { adminOperation, errors, keyIdPath, noContent, tenantIdPath } from "../common";

const rulePath = tenantIdPath.extend({
  rule: z
    .string()
    .regex(RULE_NAME_PATTERN)
    .meta({ description: "The name of an `identifier`-scope rule of the tenant." }),
});

export const counterResetPaths: ZodOpenApiPathsObject = {
  "/api/admin/keys/{keyId}/counters": {
    delete: adminOperation("write", {
      operationId: "resetKeyCounters",
      tags: ["Quota"],
      summary: "Reset every counter and penalty charged to a key",
      description:
        "The counters and penalties (`blockMs`) of the key's `key`-scoped rules are deleted: full quota again on every instance within 1 s (cached refusals included). `tenant`, `ip` and `identifier` counters are shared and stay. Audited (`key.counters.reset`), not revertible.",
      requestParams: { path: keyIdPath },
      responses: { "204": noContent("Reset."), ...errors("not_found", "limiter_unavailable") },
    }),
  },
  "/api/admin/tenants/{tenantId}/rules/{rule}/counters": {
    delete: adminOperation("write", {
      operationId: "resetIdentifierCounters",
      tags: ["Quota"],
      summary: "Reset one identifier's counters",
      description:
        "Deletes the counters and penalties of `identifier` (a query parameter: it may contain `/`). One Redis key holds an identifier's state under every `identifier` rule of the tenant, so all of them are reset. In force on every instance within 1 s. Audited (`identifier.counters.reset`), not revertible.",
      requestParams: { path: rulePath, query: identifierResetQuerySchema },
      responses: { "204": noContent("Reset."), ...errors("not_found", "invalid", "limiter_unavailable") },
    }),
  },
};
