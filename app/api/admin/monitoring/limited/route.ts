import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantOfQuery } from "@/lib/control/admin/tenantScope";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { limitedNowInput } from "@/lib/monitoring/query/monitoringParams";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Who an enforce rule refused in the last minute, with the live quota (lib/monitoring/query/limitedNowQuery.ts). */
export const GET = adminRoute(
  "read",
  async (request) => {
    const input = limitedNowInput(new URL(request.url).searchParams, Date.now());
    return Response.json(await services().monitoring.limitedNow(input));
  },
  { tenantOf: tenantOfQuery },
);

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
