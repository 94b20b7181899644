import { notAllowed } from "@/lib/http/methodNotAllowed";
import { isHealthy } from "@/lib/control/health/checkHealth";
import { healthCache } from "@/lib/control/health/healthCache";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const report = await healthCache().report();
  return Response.json(report, {
    status: isHealthy(report) ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
