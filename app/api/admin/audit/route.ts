import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantOfQuery } from "@/lib/control/admin/tenantScope";
import { auditQuerySchema } from "@/lib/control/admin/querySchemas";
import { listAudit } from "@/lib/policy/audit/auditLog";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** A tenant-limited token reads its own tenant's events only (`?tenantId=`): lib/control/admin/tenantScope.ts. */
export const GET = adminEndpoint("read", {
  tenantOf: tenantOfQuery,
  query: auditQuerySchema,
  handle: ({ query }) => listAudit(query),
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
