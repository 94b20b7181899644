import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantIdParam } from "@/lib/control/admin/params";
import { services } from "@/lib/runtime/services";
import { simulateSchema } from "@/lib/control/simulator/simulateSchema";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// "read": a simulation changes nothing (a viewer may run it); POST still gets the same-origin check.
export const POST = adminEndpoint("read", {
  params: { tenantId: tenantIdParam },
  body: simulateSchema,
  headers: { "cache-control": "no-store" },
  handle: ({ params, body }) => services().simulator.simulate(params.tenantId, body),
});

export const { GET, PUT, PATCH, DELETE } = notAllowed(["POST"]);
