import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tokenIdParam } from "@/lib/control/admin/params";
import { assertUnscopedAdmin } from "@/lib/control/admin/tenantScope";
import { deleteToken } from "@/lib/control/tokens/tokenStore";
import { notAllowed } from "@/lib/http/methodNotAllowed";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Revokes the token: every instance refuses it (401) from its next call on (no cache to expire). */
export const DELETE = adminEndpoint("write", {
  guard: assertUnscopedAdmin,
  params: { tokenId: tokenIdParam },
  handle: async ({ actor, params }) => {
    await deleteToken(actor, params.tokenId);
    return undefined;
  },
});

export const { GET, POST, PUT, PATCH } = notAllowed(["DELETE"]);
