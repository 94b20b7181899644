import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { keyIdParam } from "@/lib/control/admin/params";
import { quotaOfKey } from "@/lib/control/admin/quotaService";
import { keyQuotaQuerySchema } from "@/lib/control/admin/querySchemas";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = adminEndpoint("read", {
  params: { keyId: keyIdParam },
  query: keyQuotaQuerySchema,
  headers: { "cache-control": "no-store" },
  handle: ({ params, query }) => quotaOfKey(services().quotaLimiter, params.keyId, query),
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
