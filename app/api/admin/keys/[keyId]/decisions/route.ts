import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { keyIdParam } from "@/lib/control/admin/params";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { recentDecisionsInput } from "@/lib/monitoring/query/monitoringParams";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The key's recent decisions, newest first: `{ decisions: [...] }` (lib/monitoring/query/recentDecisionsQuery.ts). */
export const GET = adminEndpoint("read", {
  params: { keyId: keyIdParam },
  handle: ({ request, params }) =>
    services().monitoring.recentDecisions(recentDecisionsInput(params.keyId, new URL(request.url).searchParams)),
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
