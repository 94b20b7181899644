import { notAllowed } from "@/lib/http/methodNotAllowed";
import { getKeyDetails } from "@/lib/policy/compiled/keyRules";
import { keyPatchSchema } from "@/lib/control/admin/schemas";
import { patchKey, revokeKey } from "@/lib/policy/keys/keyStore";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { keyIdParam } from "@/lib/control/admin/params";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { keyId: string };

export const GET = adminRoute<Params>("read", async (_request, _actor, params) =>
  Response.json(await getKeyDetails(keyIdParam(params.keyId))),
);

export const DELETE = adminRoute<Params>("write", async (_request, actor, params) => {
  const revoked = await revokeKey(actor, keyIdParam(params.keyId));
  // Also when it was revoked already: a retry after a 503 "not yet in force" must apply it here.
  await services().announce(revoked.tenantId);
  return new Response(null, { status: 204 });
});

/** `{ expiresAt?, tier? }`: sets or clears (null) the key's expiry and its tier; 200 with the key. */
export const PATCH = adminRoute<Params>("write", async (request, actor, params) => {
  const keyId = keyIdParam(params.keyId);
  const input = parseInput(keyPatchSchema, await readJsonBody(request));
  const saved = await patchKey(actor, keyId, input);
  // Also when unchanged: a retry after a 503 "not yet in force" must apply it here.
  await services().announce(saved.key.tenantId);
  return Response.json(saved.key);
});

export const { POST, PUT } = notAllowed(["GET", "PATCH", "DELETE"]);
