import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantIdParam } from "@/lib/control/admin/params";
import { testUpstream } from "@/lib/dataplane/gateway/testUpstream";
import { getUpstream } from "@/lib/policy/upstreams/upstreamStore";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string };

/**
 * Sends one GET to the tenant's stored upstream from this server (lib/dataplane/gateway/testUpstream.ts)
 * and answers 200 with what happened (`ok`, `status`, `latencyMs`, `error`); 404 without an upstream.
 * Admins only: it sends traffic. Changes nothing, so nothing is audited.
 */
export const POST = adminRoute<Params>("write", async (_request, _actor, params) => {
  const upstream = await getUpstream(tenantIdParam(params.tenantId));
  return Response.json(await testUpstream(upstream));
});

export const { GET, PUT, PATCH, DELETE } = notAllowed(["POST"]);
