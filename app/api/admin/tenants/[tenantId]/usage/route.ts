import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantIdParam } from "@/lib/control/admin/params";
import { usageAnswer } from "@/lib/control/admin/usageService";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = adminRoute<{ tenantId: string }>("read", async (request, _actor, params) =>
  usageAnswer(tenantIdParam(params.tenantId), request),
);

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
