import { notAllowed } from "@/lib/http/methodNotAllowed";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantIdParam } from "@/lib/control/admin/params";
import { identitySchema } from "@/lib/policy/identity/identitySchema";
import { getIdentity, putIdentity } from "@/lib/policy/identity/identityStore";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string };

/** 200 with the tenant's hosts and callers (the defaults when never set). */
export const GET = adminRoute<Params>("read", async (_request, _actor, params) =>
  Response.json(await getIdentity(tenantIdParam(params.tenantId))),
);

/** Replaces them: 200 with the settings as stored, in force on this instance and announced; 409 for another tenant's host. */
export const PUT = adminRoute<Params>("write", async (request, actor, params) => {
  const tenantId = tenantIdParam(params.tenantId);
  const identity = parseInput(identitySchema, await readJsonBody(request));
  const saved = await putIdentity(actor, tenantId, identity);
  await services().announce(saved.tenantId);
  return Response.json(saved.identity);
});

export const { POST, PATCH, DELETE } = notAllowed(["GET", "PUT"]);
