import { notAllowed } from "@/lib/http/methodNotAllowed";
import { problemFromError } from "@/lib/http/problem";
import { metrics } from "@/lib/monitoring/prometheus/metrics";
import { assertMetricsAccess } from "@/lib/control/auth/metricsAccess";
import { instanceMetrics } from "@/lib/runtime/planeLink";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    assertMetricsAccess(request);
  } catch (error) {
    return problemFromError(error);
  }
  // The whole instance: with the data plane's counters when it runs in another thread (npm start).
  const { text, contentType } = await instanceMetrics(metrics().registry);
  return new Response(text, { headers: { "content-type": contentType, "cache-control": "no-store" } });
}

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
