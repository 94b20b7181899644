/**
 * The answer about a key's grants (POST/GET /api/admin/keys/{keyId}/grants), as a zod schema: the
 * one description of its shape. grantService.ts returns its inferred type, the OpenAPI document
 * renders it, the dashboard imports the type.
 */
import { z } from "zod";
import { isoTimeSchema } from "../../common/isoTime";

export const grantViewSchema = z.object({
  id: z.string(),
  keyId: z.string(),
  rule: z.string().nullable().meta({ description: "The rule raised; null: every key-scoped rule of the key." }),
  units: z.number().int(),
  until: isoTimeSchema.meta({ description: "When the grant ends (it then disappears by itself)." }),
  createdAt: isoTimeSchema,
  createdBy: z.string().meta({ description: "The audit actor that made it." }),
});
export type GrantView = z.infer<typeof grantViewSchema>;
