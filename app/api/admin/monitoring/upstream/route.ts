import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantOfQuery } from "@/lib/control/admin/tenantScope";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { upstreamHealthInput } from "@/lib/monitoring/query/monitoringParams";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A tenant's upstream health over the range (lib/monitoring/query/upstreamHealthQuery.ts). */
export const GET = adminRoute(
  "read",
  async (request) => {
    const input = upstreamHealthInput(new URL(request.url).searchParams, Date.now());
    return Response.json(await services().monitoring.upstreamHealth(input));
  },
  { tenantOf: tenantOfQuery },
);

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
