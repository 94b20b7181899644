import { notAllowed } from "@/lib/http/methodNotAllowed";
import { getKeyDetails } from "@/lib/apiKeys/keyRules";
import { revokeKey } from "@/lib/apiKeys/keyStore";
import { adminRoute } from "@/lib/admin/adminRoute";
import { keyIdParam } from "@/lib/admin/params";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { keyId: string };

export const GET = adminRoute<Params>("read", async (_request, _actor, params) => Response.json(await getKeyDetails(keyIdParam(params.keyId))));

export const DELETE = adminRoute<Params>("write", async (_request, actor, params) => {
  const revoked = await revokeKey(actor, keyIdParam(params.keyId));
  if (revoked.changed) await services().announce(revoked.tenantId);
  return new Response(null, { status: 204 });
});

export const { POST, PUT, PATCH } = notAllowed(["GET", "DELETE"]);
