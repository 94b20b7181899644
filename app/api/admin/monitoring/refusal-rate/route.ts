import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantOfQuery } from "@/lib/control/admin/tenantScope";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { refusalRateInput } from "@/lib/monitoring/query/monitoringParams";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = adminRoute(
  "read",
  async (request) => {
    const input = refusalRateInput(new URL(request.url).searchParams, Date.now());
    return Response.json(await services().monitoring.refusalRate(input));
  },
  { tenantOf: tenantOfQuery },
);

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
