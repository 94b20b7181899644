import { notAllowed } from "@/lib/http/methodNotAllowed";
import { metrics } from "@/lib/metrics/metrics";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const { registry } = metrics();
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
}

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
