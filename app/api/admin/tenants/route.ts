import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { createTenantSchema } from "@/lib/control/admin/schemas";
import { services } from "@/lib/runtime/services";
import { allowedTenants } from "@/lib/control/admin/tenantScope";
import { createTenant, listTenants } from "@/lib/policy/tenants/tenantStore";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** An operator limited to tenants gets its own tenants only; a tenant-scoped token gets 403 (contract: instance-wide). */
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
