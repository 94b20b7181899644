import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { createTenantSchema } from "@/lib/control/admin/schemas";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { services } from "@/lib/runtime/services";
import { createTenant, listTenants } from "@/lib/policy/tenants/tenantStore";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = adminRoute("read", async () => Response.json(await listTenants()));

export const POST = adminRoute("write", async (request, actor) => {
  const input = parseInput(createTenantSchema, await readJsonBody(request));
  const tenant = await createTenant(actor, input.name);
  await services().announce(tenant.id, tenant);
  return Response.json(tenant, { status: 201 });
});

export const { PUT, PATCH, DELETE } = notAllowed(["GET", "POST"]);
