import { notAllowed } from "@/lib/http/methodNotAllowed";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantIdParam } from "@/lib/control/admin/params";
import { accessListsSchema } from "@/lib/policy/access/accessListSchema";
import { getAccessLists, replaceAccessLists } from "@/lib/policy/access/accessListStore";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string };

/** 200 `{ allow, deny }` (both empty when none were set); 404 for an unknown tenant. */
export const GET = adminRoute<Params>("read", async (_request, _actor, params) =>
  Response.json(await getAccessLists(tenantIdParam(params.tenantId))),
);

/** Replaces both lists: 200 with them as stored, in force on this instance and announced. */
export const PUT = adminRoute<Params>("write", async (request, actor, params) => {
  const tenantId = tenantIdParam(params.tenantId);
  const lists = parseInput(accessListsSchema, await readJsonBody(request));
  const saved = await replaceAccessLists(actor, tenantId, lists);
  await services().announce(saved.tenantId);
  return Response.json(saved.lists);
});

export const { POST, PATCH, DELETE } = notAllowed(["GET", "PUT"]);
