import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantOfQuery } from "@/lib/control/admin/tenantScope";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { trafficInput } from "@/lib/monitoring/query/monitoringParams";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = adminEndpoint("read", {
  tenantOf: tenantOfQuery,
  handle: async ({ request }) => {
    const { monitoring } = services();
    const input = await trafficInput(new URL(request.url).searchParams, Date.now(), monitoring.directory);
    return monitoring.trafficSeries(input);
  },
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
