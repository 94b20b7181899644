import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { resetKeyCounters } from "@/lib/control/admin/counterResetService";
import { keyIdParam } from "@/lib/control/admin/params";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { keyId: string };

/** Resets every counter charged to the key (its key-scoped rules): full quota again, everywhere within 1 s. */
export const DELETE = adminRoute<Params>("write", async (_request, actor, params) => {
  const reset = await resetKeyCounters(services().counterReset, actor, keyIdParam(params.keyId));
  // Every instance drops its cached refusals of the tenant.
  await services().announceReset(reset.tenantId);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH } = notAllowed(["DELETE"]);
