/**
 * The usage answer (GET /api/admin/tenants/{tenantId}/usage as JSON), as a zod schema: the one
 * description of its shape. usageQuery.ts returns its rows' inferred type, the OpenAPI document
 * renders it, the dashboard imports the type.
 */
import { z } from "zod";

export const usageRowSchema = z.object({
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
export type UsageRow = z.infer<typeof usageRowSchema>;

export const usageAnswerSchema = z.object({ rows: z.array(usageRowSchema).meta({ description: "Oldest first." }) });
export type UsageAnswer = z.infer<typeof usageAnswerSchema>;
