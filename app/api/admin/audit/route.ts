import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantOfQuery } from "@/lib/control/admin/tenantScope";
import { auditQuerySchema } from "@/lib/control/admin/querySchemas";
import { listAudit } from "@/lib/policy/audit/auditLog";
import { parseInput } from "@/lib/http/validate";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A tenant-limited token reads its own tenant's events only (`?tenantId=`): lib/control/admin/tenantScope.ts. */
export const GET = adminRoute(
  "read",
  async (request) => {
    const query = parseInput(auditQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
    return Response.json(await listAudit(query));
  },
  { tenantOf: tenantOfQuery },
);

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
