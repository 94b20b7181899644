import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tokenIdParam } from "@/lib/control/admin/params";
import { assertUnscopedAdmin } from "@/lib/control/admin/tenantScope";
import { deleteToken } from "@/lib/control/tokens/tokenStore";
import { notAllowed } from "@/lib/http/methodNotAllowed";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tokenId: string };

/** Revokes the token: every instance refuses it (401) from its next call on (no cache to expire). */
export const DELETE = adminRoute<Params>("write", async (_request, actor, params) => {
  assertUnscopedAdmin(actor);
  await deleteToken(actor, tokenIdParam(params.tokenId));
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH } = notAllowed(["DELETE"]);
