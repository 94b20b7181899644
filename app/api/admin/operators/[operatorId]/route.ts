import { adminRoute } from "@/lib/control/admin/adminRoute";
import { operatorIdParam } from "@/lib/control/admin/params";
import { updateOperatorSchema } from "@/lib/control/auth/operatorSchemas";
import { deleteOperator, getOperator, updateOperator } from "@/lib/control/auth/operatorStore";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { operatorId: string };

export const GET = adminRoute<Params>("read", async (_request, _actor, params) =>
  Response.json(await getOperator(operatorIdParam(params.operatorId))),
);

export const PATCH = adminRoute<Params>("write", async (request, actor, params) => {
  const id = operatorIdParam(params.operatorId);
  const input = parseInput(updateOperatorSchema, await readJsonBody(request));
  return Response.json(await updateOperator(actor, id, input));
});

export const DELETE = adminRoute<Params>("write", async (_request, actor, params) => {
  await deleteOperator(actor, operatorIdParam(params.operatorId));
  return new Response(null, { status: 204 });
});

export const { POST, PUT } = notAllowed(["GET", "PATCH", "DELETE"]);
