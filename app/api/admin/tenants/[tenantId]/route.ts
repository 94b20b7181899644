import { notAllowed } from "@/lib/http/methodNotAllowed";
import type { TenantDetail } from "@/lib/control/admin/answers";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantIdParam } from "@/lib/control/admin/params";
import { findUpstream } from "@/lib/policy/upstreams/upstreamStore";
import { getTenant } from "@/lib/policy/tenants/tenantStore";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string };

/** The tenant as the list shows it, with its gateway upstream (null when none: the page shows it without a 404). */
export const GET = adminRoute<Params>("read", async (_request, _actor, params) => {
  const tenantId = tenantIdParam(params.tenantId);
  const [tenant, upstream] = await Promise.all([getTenant(tenantId), findUpstream(tenantId)]);
  const detail: TenantDetail = { ...tenant, upstream };
  return Response.json(detail);
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
