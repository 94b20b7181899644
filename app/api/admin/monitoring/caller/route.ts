import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantOfQuery } from "@/lib/control/admin/tenantScope";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { callerHistoryInput } from "@/lib/monitoring/query/monitoringParams";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One caller's requests and refusals over time, by rule (lib/monitoring/query/callerHistoryQuery.ts). */
export const GET = adminEndpoint("read", {
  tenantOf: tenantOfQuery,
  handle: ({ request }) =>
    services().monitoring.callerHistory(callerHistoryInput(new URL(request.url).searchParams, Date.now())),
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
