import { checkIdentifier, checkRequestSchema } from "@/lib/enforce/checkIdentifier";
import { protectedRoute } from "@/lib/enforce/protectedRoute";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = protectedRoute(async (request, client) => {
  const input = parseInput(checkRequestSchema, await readJsonBody(request));
  const { access, limiter } = services();
  return Response.json(await checkIdentifier(limiter, access.tenant(client.tenantId), input));
});
