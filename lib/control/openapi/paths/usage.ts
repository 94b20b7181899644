/** Metering: /api/admin/tenants/{tenantId}/usage (CONTRACT.md "Quotas, grants and usage"). */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { usageParamsSchema } from "../../../monitoring/usage/usageParams";
import { adminOperation, errors, tenantIdPath } from "../common";

const usageRowSchema = z.object({
  start: z.string().meta({ description: "The hour's or UTC day's start (ISO 8601)." }),
  key: z.string().optional().meta({ description: "groupBy=key: the API key id (absent: requests without one)." }),
  caller: z
    .string()
    .optional()
    .meta({ description: "groupBy=caller: a key id, `~<JWT subject>` or `@<address>` (absent: none)." }),
  rule: z.string().optional().meta({ description: "groupBy=rule: the rule's name." }),
  tier: z.string().optional().meta({ description: "groupBy=tier: the caller's tier (absent: none)." }),
  admitted: z.number().int(),
  refused: z.number().int(),
  units: z.number().int().meta({ description: "Units charged by admitted requests (a rule's cost)." }),
});

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
            "application/json": { schema: z.object({ rows: z.array(usageRowSchema) }) },
            "text/csv": { schema: z.string().meta({ description: "start,<group>,admitted,refused,units" }) },
          },
        },
        ...errors("not_found", "invalid"),
      },
    }),
  },
};
