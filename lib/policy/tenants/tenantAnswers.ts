/**
 * The answers about tenants, as zod schemas: the one description of their shape. The store returns
 * their inferred types, the OpenAPI document renders them (lib/control/openapi/paths/tenants.ts),
 * the dashboard imports the types.
 */
import { z } from "zod";
import { isoTimeSchema } from "../../common/isoTime";

export const tenantSchema = z.object({ id: z.string(), name: z.string(), createdAt: isoTimeSchema });
export type TenantView = z.infer<typeof tenantSchema>;

/** GET /api/admin/tenants: each tenant with its count of live keys. */
export const tenantListItemSchema = tenantSchema.extend({
  keyCount: z.number().int().meta({ description: "Live keys: neither revoked nor expired." }),
});
export type TenantListItem = z.infer<typeof tenantListItemSchema>;
