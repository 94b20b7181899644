import { notAllowed } from "@/lib/http/methodNotAllowed";
import { AppError } from "@/lib/http/errors";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { deleteGrant } from "@/lib/control/admin/grantService";
import { keyIdParam } from "@/lib/control/admin/params";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { keyId: string; grantId: string };

/** Ends a grant now (issue 33): 204, the key's limits as without it everywhere within 1 s; audited. */
export const DELETE = adminRoute<Params>("write", async (_request, actor, params) => {
  const keyId = keyIdParam(params.keyId);
  if (!/^[a-z0-9]{1,64}$/.test(params.grantId))
    throw new AppError("not_found", `No grant ${JSON.stringify(params.grantId)} of API key ${JSON.stringify(keyId)}.`);
  const deleted = await deleteGrant(actor, keyId, params.grantId);
  await services().announce(deleted.tenantId);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH } = notAllowed(["DELETE"]);
