import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { keyIdParam } from "@/lib/control/admin/params";
import { quotaOfKey } from "@/lib/control/admin/quotaService";
import { keyQuotaQuerySchema } from "@/lib/control/admin/querySchemas";
import { parseInput } from "@/lib/http/validate";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { keyId: string };

export const GET = adminRoute<Params>("read", async (request, _actor, params) => {
  const keyId = keyIdParam(params.keyId);
  const probe = parseInput(keyQuotaQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  return Response.json(await quotaOfKey(services().quotaLimiter, keyId, probe), {
    headers: { "cache-control": "no-store" },
  });
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
