import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantOfQuery } from "@/lib/control/admin/tenantScope";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { hotKeysInput } from "@/lib/monitoring/query/monitoringParams";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = adminEndpoint("read", {
  tenantOf: tenantOfQuery,
  handle: ({ request }) =>
    services().monitoring.hotDescriptors(hotKeysInput(new URL(request.url).searchParams, Date.now())),
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
