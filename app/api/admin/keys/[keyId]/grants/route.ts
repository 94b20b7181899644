import { notAllowed } from "@/lib/http/methodNotAllowed";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { createGrant, listGrants } from "@/lib/control/admin/grantService";
import { keyIdParam } from "@/lib/control/admin/params";
import { grantSchema } from "@/lib/control/admin/schemas";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { keyId: string };

/** The key's running grants (issue 33), soonest end first. */
export const GET = adminRoute<Params>("read", async (_request, _actor, params) =>
  Response.json(await listGrants(keyIdParam(params.keyId))),
);

/** `{ units, rule?, until? }`: extra units for the key; 201 with the grant, in force everywhere within 1 s. */
export const POST = adminRoute<Params>("write", async (request, actor, params) => {
  const keyId = keyIdParam(params.keyId);
  const input = parseInput(grantSchema, await readJsonBody(request));
  const created = await createGrant(actor, keyId, input);
  await services().announce(created.tenantId);
  return Response.json(created.grant, { status: 201 });
});

export const { PUT, PATCH, DELETE } = notAllowed(["GET", "POST"]);
