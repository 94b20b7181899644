import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantIdParam } from "@/lib/control/admin/params";
import { testUpstream } from "@/lib/dataplane/gateway/testUpstream";
import { getUpstream } from "@/lib/policy/upstreams/upstreamStore";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Sends one GET to the tenant's stored upstream from this server (lib/dataplane/gateway/testUpstream.ts)
 * and answers 200 with what happened (`ok`, `status`, `latencyMs`, `error`); 404 without an upstream.
 * Admins only: it sends traffic. Changes nothing, so nothing is audited.
 */
export const POST = adminEndpoint("write", {
  params: { tenantId: tenantIdParam },
  handle: async ({ params }) => testUpstream(await getUpstream(params.tenantId)),
});

export const { GET, PUT, PATCH, DELETE } = notAllowed(["POST"]);
