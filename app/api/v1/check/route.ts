import { notAllowed } from "@/lib/http/methodNotAllowed";
import { checkIdentifier, checkRequestSchema } from "@/lib/enforce/checkIdentifier";
import { protectedRoute } from "@/lib/enforce/protectedRoute";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = protectedRoute(async (request, client) => {
  const input = parseInput(checkRequestSchema, await readJsonBody(request));
  const { access, limiter, recorder } = services();
  return Response.json(await checkIdentifier(limiter, access.tenant(client.tenantId), input, recorder));
});

// Other methods are still authenticated and limited like any request under /api/v1, then refused.
const wrongMethod = protectedRoute(notAllowed(["POST"]).GET);
export { wrongMethod as GET, wrongMethod as PUT, wrongMethod as PATCH, wrongMethod as DELETE };
