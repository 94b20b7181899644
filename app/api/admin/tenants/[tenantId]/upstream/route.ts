import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantIdParam } from "@/lib/control/admin/params";
import { savedUpstreamSchema, upstreamSchema } from "@/lib/policy/upstreams/upstreamSchema";
import { deleteUpstream, getUpstream, putUpstream } from "@/lib/policy/upstreams/upstreamStore";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = { tenantId: tenantIdParam };

/** 200 with the upstream; 404 when the tenant has none. */
export const GET = adminEndpoint("read", { params, handle: ({ params }) => getUpstream(params.tenantId) });

/**
 * Sets (or replaces) the upstream: 200 with it as stored (and `secret` when this PUT generated a
 * signing secret: the only time it is shown), in force on this instance and announced.
 */
export const PUT = adminEndpoint("write", {
  params,
  body: upstreamSchema,
  answer: savedUpstreamSchema,
  handle: async ({ actor, params, body }) => {
    const saved = await putUpstream(actor, params.tenantId, body);
    await services().announce(saved.tenantId);
    return { ...saved.upstream, ...(saved.secret ? { secret: saved.secret } : {}) };
  },
});

/** 204 once removed; 404 when the tenant has none. */
export const DELETE = adminEndpoint("write", {
  params,
  handle: async ({ actor, params }) => {
    const removed = await deleteUpstream(actor, params.tenantId);
    await services().announce(removed.tenantId);
    return undefined;
  },
});

export const { POST, PATCH } = notAllowed(["GET", "PUT", "DELETE"]);
