import { notAllowed } from "@/lib/http/methodNotAllowed";
import { openApiDocument } from "@/lib/control/openapi/openApiDocument";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The OpenAPI 3.1 document of the API; no auth (CONTRACT.md). */
export async function GET(): Promise<Response> {
  return Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
}

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
