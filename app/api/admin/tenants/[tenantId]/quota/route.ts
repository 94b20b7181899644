import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantIdParam } from "@/lib/control/admin/params";
import { quotaOfTenant } from "@/lib/control/admin/quotaService";
import { tenantQuotaQuerySchema } from "@/lib/control/admin/querySchemas";
import { parseInput } from "@/lib/http/validate";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string };

export const GET = adminRoute<Params>("read", async (request, _actor, params) => {
  const tenantId = tenantIdParam(params.tenantId);
  parseInput(tenantQuotaQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await quotaOfTenant(services().quotaLimiter, tenantId), {
    headers: { "cache-control": "no-store" },
  });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
