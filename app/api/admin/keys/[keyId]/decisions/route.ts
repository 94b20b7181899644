import { adminRoute } from "@/lib/control/admin/adminRoute";
import { keyIdParam } from "@/lib/control/admin/params";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { recentDecisionsInput } from "@/lib/monitoring/query/monitoringParams";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { keyId: string };

/** The key's recent decisions, newest first: `{ decisions: [...] }` (lib/monitoring/query/recentDecisionsQuery.ts). */
export const GET = adminRoute<Params>("read", async (request, _actor, params) => {
  const input = recentDecisionsInput(keyIdParam(params.keyId), new URL(request.url).searchParams);
  return Response.json(await services().monitoring.recentDecisions(input));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
