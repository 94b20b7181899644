import { notAllowed } from "@/lib/http/methodNotAllowed";
import { getKeyDetails } from "@/lib/policy/compiled/keyRules";
import { keyPatchSchema } from "@/lib/control/admin/schemas";
import { patchKey, revokeKey } from "@/lib/policy/keys/keyStore";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { keyIdParam } from "@/lib/control/admin/params";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = { keyId: keyIdParam };

export const GET = adminEndpoint("read", { params, handle: ({ params }) => getKeyDetails(params.keyId) });

export const DELETE = adminEndpoint("write", {
  params,
  handle: async ({ actor, params }) => {
    const revoked = await revokeKey(actor, params.keyId);
    // Also when it was revoked already: a retry after a 503 "not yet in force" must apply it here.
    await services().announce(revoked.tenantId);
    return undefined;
  },
});

/** `{ expiresAt?, tier?, billingDay? }`: sets or clears (null) the key's expiry, tier and billing day; 200 with the key. */
export const PATCH = adminEndpoint("write", {
  params,
  body: keyPatchSchema,
  handle: async ({ actor, params, body }) => {
    const saved = await patchKey(actor, params.keyId, body);
    // Also when unchanged: a retry after a 503 "not yet in force" must apply it here.
    await services().announce(saved.key.tenantId);
    return saved.key;
  },
});

export const { POST, PUT } = notAllowed(["GET", "PATCH", "DELETE"]);
