import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { createOperatorSchema } from "@/lib/control/auth/operatorSchemas";
import { createOperator, listOperators } from "@/lib/control/auth/operatorStore";
import { notAllowed } from "@/lib/http/methodNotAllowed";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = adminEndpoint("read", { handle: () => listOperators() });

export const POST = adminEndpoint("write", {
  body: createOperatorSchema,
  status: 201,
  handle: ({ actor, body }) => createOperator(actor, body),
});

export const { PUT, PATCH, DELETE } = notAllowed(["GET", "POST"]);
