import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantIdParam } from "@/lib/control/admin/params";
import { quotaOfTenant } from "@/lib/control/admin/quotaService";
import { tenantQuotaQuerySchema } from "@/lib/control/admin/querySchemas";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = adminEndpoint("read", {
  params: { tenantId: tenantIdParam },
  query: tenantQuotaQuerySchema,
  headers: { "cache-control": "no-store" },
  handle: ({ params }) => quotaOfTenant(services().quotaLimiter, params.tenantId),
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
