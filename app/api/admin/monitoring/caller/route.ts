import { adminRoute } from "@/lib/control/admin/adminRoute";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { callerHistoryInput } from "@/lib/monitoring/query/monitoringParams";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** One caller's requests and refusals over time, by rule (lib/monitoring/query/callerHistoryQuery.ts). */
export const GET = adminRoute("read", async (request) => {
  const input = callerHistoryInput(new URL(request.url).searchParams, Date.now());
  return Response.json(await services().monitoring.callerHistory(input));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
