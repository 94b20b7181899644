import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminRoute } from "@/lib/admin/adminRoute";
import { tenantIdParam } from "@/lib/admin/params";
import { getTenant } from "@/lib/tenants/tenantStore";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string };

export const GET = adminRoute<Params>("read", async (_request, _actor, params) => Response.json(await getTenant(tenantIdParam(params.tenantId))));

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
