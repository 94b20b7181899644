import { notAllowed } from "@/lib/http/methodNotAllowed";
import { listTiers } from "@/lib/policy/tiers/tierStore";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantIdParam } from "@/lib/control/admin/params";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = adminRoute<{ tenantId: string }>("read", async (_request, _actor, params) =>
  Response.json(await listTiers(tenantIdParam(params.tenantId))),
);

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
