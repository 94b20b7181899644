import { notAllowed } from "@/lib/http/methodNotAllowed";
import { createKey, listKeys } from "@/lib/policy/keys/keyStore";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantIdParam } from "@/lib/control/admin/params";
import { createKeySchema } from "@/lib/control/admin/schemas";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string };

export const GET = adminRoute<Params>("read", async (_request, _actor, params) =>
  Response.json(await listKeys(tenantIdParam(params.tenantId))),
);

export const POST = adminRoute<Params>("write", async (request, actor, params) => {
  const tenantId = tenantIdParam(params.tenantId);
  const input = parseInput(createKeySchema, await readJsonBody(request));
  const created = await createKey(actor, tenantId, input.name, input.expiresAt ?? null, input.tier ?? null);
  await services().announce(tenantId, created);
  return Response.json(created, { status: 201, headers: { "cache-control": "no-store" } });
});

export const { PUT, PATCH, DELETE } = notAllowed(["GET", "POST"]);
