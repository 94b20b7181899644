import { protectedRoute } from "@/lib/enforce/protectedRoute";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const echo = protectedRoute(async (request, client) =>
  Response.json({ ok: true, tenantId: client.tenantId, keyId: client.key.id, method: request.method, path: new URL(request.url).pathname }),
);

export { echo as GET, echo as POST, echo as PUT, echo as PATCH, echo as DELETE };
