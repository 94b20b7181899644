import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { operatorIdParam } from "@/lib/control/admin/params";
import { updateOperatorSchema } from "@/lib/control/auth/operatorSchemas";
import { deleteOperator, getOperator, updateOperator } from "@/lib/control/auth/operatorStore";
import { notAllowed } from "@/lib/http/methodNotAllowed";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = { operatorId: operatorIdParam };

export const GET = adminEndpoint("read", { params, handle: ({ params }) => getOperator(params.operatorId) });

export const PATCH = adminEndpoint("write", {
  params,
  body: updateOperatorSchema,
  handle: ({ actor, params, body }) => updateOperator(actor, params.operatorId, body),
});

export const DELETE = adminEndpoint("write", {
  params,
  handle: async ({ actor, params }) => {
    await deleteOperator(actor, params.operatorId);
    return undefined;
  },
});

export const { POST, PUT } = notAllowed(["GET", "PATCH", "DELETE"]);
