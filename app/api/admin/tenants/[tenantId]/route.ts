import { notAllowed } from "@/lib/http/methodNotAllowed";
import { tenantDetailSchema } from "@/lib/control/admin/answers";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantIdParam } from "@/lib/control/admin/params";
import { findUpstream } from "@/lib/policy/upstreams/upstreamStore";
import { getTenant } from "@/lib/policy/tenants/tenantStore";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The tenant as the list shows it, with its gateway upstream (null when none: the page shows it without a 404). */
export const GET = adminEndpoint("read", {
  params: { tenantId: tenantIdParam },
  answer: tenantDetailSchema,
  handle: async ({ params: { tenantId } }) => {
    const [tenant, upstream] = await Promise.all([getTenant(tenantId), findUpstream(tenantId)]);
    return { ...tenant, upstream };
  },
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
