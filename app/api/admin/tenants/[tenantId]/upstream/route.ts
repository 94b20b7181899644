import { notAllowed } from "@/lib/http/methodNotAllowed";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantIdParam } from "@/lib/control/admin/params";
import { upstreamSchema } from "@/lib/policy/upstreams/upstreamSchema";
import { deleteUpstream, getUpstream, putUpstream } from "@/lib/policy/upstreams/upstreamStore";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string };

/** 200 with the upstream; 404 when the tenant has none. */
export const GET = adminRoute<Params>("read", async (_request, _actor, params) =>
  Response.json(await getUpstream(tenantIdParam(params.tenantId))),
);

/**
 * Sets (or replaces) the upstream: 200 with it as stored (and `secret` when this PUT generated a
 * signing secret: the only time it is shown), in force on this instance and announced.
 */
export const PUT = adminRoute<Params>("write", async (request, actor, params) => {
  const tenantId = tenantIdParam(params.tenantId);
  const upstream = parseInput(upstreamSchema, await readJsonBody(request));
  const saved = await putUpstream(actor, tenantId, upstream);
  await services().announce(saved.tenantId);
  return Response.json({ ...saved.upstream, ...(saved.secret ? { secret: saved.secret } : {}) });
});

/** 204 once removed; 404 when the tenant has none. */
export const DELETE = adminRoute<Params>("write", async (_request, actor, params) => {
  const removed = await deleteUpstream(actor, tenantIdParam(params.tenantId));
  await services().announce(removed.tenantId);
  return new Response(null, { status: 204 });
});

export const { POST, PATCH } = notAllowed(["GET", "PUT", "DELETE"]);
