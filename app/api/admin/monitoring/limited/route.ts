import { adminRoute } from "@/lib/admin/adminRoute";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { limitedNowInput } from "@/lib/metrics/monitoringParams";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Who an enforce rule refused in the last minute, with the live quota (lib/metrics/limitedNowQuery.ts). */
export const GET = adminRoute("read", async (request) => {
  const input = limitedNowInput(new URL(request.url).searchParams, Date.now());
  return Response.json(await services().monitoring.limitedNow(input));
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
