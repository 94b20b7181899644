/**
 * An audit event as the admin API answers it (GET /api/admin/audit, the revert's answer), as a zod
 * schema: the one description of its shape. The audit log returns its inferred type, the OpenAPI
 * document renders it, the dashboard imports the type.
 */
import { z } from "zod";
import { isoTimeSchema } from "../../common/isoTime";

export const auditEventSchema = z.object({
  id: z
    .string()
    .meta({ description: "Decimal id (a BigInt in the database): the `before` cursor and the revert route's id." }),
  at: isoTimeSchema,
  actor: z.string().meta({
    description:
      "`token` (the admin token), `token:<name>` (a scoped API token) or `operator:<email>`; `sso:<issuer>` for an operator created at a single sign-on.",
  }),
  action: z.string(),
  target: z.string(),
  tenantId: z.string().nullable(),
  before: z.unknown().meta({ description: "The state before the change (JSON), or null." }),
  after: z.unknown().meta({ description: "The state after the change (JSON), or null." }),
  revertOf: z.string().nullable().meta({ description: "The id of the event this one reverted, or null." }),
  revertible: z.boolean().meta({
    description: "Whether the kind of change can be reverted (the revert may still be refused by the current state).",
  }),
  targetName: z
    .string()
    .nullable()
    .optional()
    .meta({ description: "The name of the key a `key:<id>` target names (the list only; null when unknown)." }),
  revertedBy: z.string().nullable().optional().meta({
    description:
      "The id of the revert that undid this change and is itself still in force, or null (the list only). The dashboard marks such a change reverted and offers no Revert on it.",
  }),
});
export type AuditEventView = z.infer<typeof auditEventSchema>;
