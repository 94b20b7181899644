import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantIdParam } from "@/lib/control/admin/params";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { services } from "@/lib/runtime/services";
import { simulateSchema } from "@/lib/control/simulator/simulateSchema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string };

// "read": a simulation changes nothing (a viewer may run it); POST still gets the same-origin check.
export const POST = adminRoute<Params>("read", async (request, _actor, params) => {
  const tenantId = tenantIdParam(params.tenantId);
  const input = parseInput(simulateSchema, await readJsonBody(request));
  return Response.json(await services().simulator.simulate(tenantId, input), {
    headers: { "cache-control": "no-store" },
  });
});

export const { GET, PUT, PATCH, DELETE } = notAllowed(["POST"]);
