import { notAllowed } from "@/lib/http/methodNotAllowed";
import { problemFromError } from "@/lib/http/problem";
import { metrics } from "@/lib/monitoring/prometheus/metrics";
import { assertMetricsAccess } from "@/lib/control/auth/metricsAccess";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    assertMetricsAccess(request);
  } catch (error) {
    return problemFromError(error);
  }
  const { registry } = metrics();
  return new Response(await registry.metrics(), {
    headers: { "content-type": registry.contentType, "cache-control": "no-store" },
  });
}

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
