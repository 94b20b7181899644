import { adminRoute } from "@/lib/control/admin/adminRoute";
import { createOperatorSchema } from "@/lib/control/auth/operatorSchemas";
import { createOperator, listOperators } from "@/lib/control/auth/operatorStore";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = adminRoute("read", async () => Response.json(await listOperators()));

export const POST = adminRoute("write", async (request, actor) => {
  const input = parseInput(createOperatorSchema, await readJsonBody(request));
  return Response.json(await createOperator(actor, input), { status: 201 });
});

export const { PUT, PATCH, DELETE } = notAllowed(["GET", "POST"]);
