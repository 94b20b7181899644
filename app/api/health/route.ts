import { notAllowed } from "@/lib/http/methodNotAllowed";
import { checkHealth, isHealthy } from "@/lib/health/checkHealth";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const report = await checkHealth();
  return Response.json(report, {
    status: isHealthy(report) ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
