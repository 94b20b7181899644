/** Metering: /api/admin/tenants/{tenantId}/usage (CONTRACT.md "Quotas, grants and usage"). */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { usageAnswerSchema } from "../../../monitoring/usage/usageAnswers";
import { usageParamsSchema } from "../../../monitoring/usage/usageParams";
import { adminOperation, errors, tenantIdPath } from "../common";

export const usagePaths: ZodOpenApiPathsObject = {
  "/api/admin/tenants/{tenantId}/usage": {
    get: adminOperation("read", {
      operationId: "getUsage",
      tags: ["Monitoring"],
      summary: "The tenant's metered usage by hour or day",
      description:
        "Admitted and refused requests and units per hour or UTC day, for any range of at most 400 days within the retention (401 days, by hour and by day), optionally grouped by key, caller, rule or tier, or for one key (`key`). Rolled up from the decisions at most 60 s (plus a 15 s grace) after they were made. `Accept: text/csv` gives the same rows as CSV. `from` after `to`, a longer range, unknown values or parameters are a 422.",
      requestParams: { path: tenantIdPath, query: usageParamsSchema },
      responses: {
        "200": {
          description: "The rows, oldest first.",
          content: {
            "application/json": { schema: usageAnswerSchema },
            "text/csv": { schema: z.string().meta({ description: "start,<group>,admitted,refused,units" }) },
          },
        },
        ...errors("not_found", "invalid"),
      },
    }),
  },
};
