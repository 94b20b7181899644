import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantOfQuery } from "@/lib/control/admin/tenantScope";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { limitedNowInput } from "@/lib/monitoring/query/monitoringParams";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Who an enforce rule refused in the last minute, with the live quota (lib/monitoring/query/limitedNowQuery.ts). */
export const GET = adminEndpoint("read", {
  tenantOf: tenantOfQuery,
  handle: ({ request }) =>
    services().monitoring.limitedNow(limitedNowInput(new URL(request.url).searchParams, Date.now())),
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
