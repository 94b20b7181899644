import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { createTenantSchema } from "@/lib/control/admin/schemas";
import { services } from "@/lib/runtime/services";
import { allowedTenants } from "@/lib/control/admin/tenantScope";
import { createTenant, listTenants } from "@/lib/policy/tenants/tenantStore";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A tenant-limited operator or token gets its own tenants only (contract: instance-wide is refused). */
export const GET = adminEndpoint("read", {
  filtersByTenant: true,
  handle: ({ actor }) => listTenants(new Date(), allowedTenants(actor)),
});

export const POST = adminEndpoint("write", {
  body: createTenantSchema,
  status: 201,
  handle: async ({ actor, body }) => {
    const tenant = await createTenant(actor, body.name);
    await services().announce(tenant.id, tenant);
    return tenant;
  },
});

export const { PUT, PATCH, DELETE } = notAllowed(["GET", "POST"]);
