import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { resetKeyCounters } from "@/lib/control/admin/counterResetService";
import { keyIdParam } from "@/lib/control/admin/params";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Resets every counter charged to the key (its key-scoped rules): full quota again, everywhere within 1 s. */
export const DELETE = adminEndpoint("write", {
  params: { keyId: keyIdParam },
  handle: async ({ actor, params }) => {
    const reset = await resetKeyCounters(services().counterReset, actor, params.keyId);
    // Every instance drops its cached refusals of the tenant.
    await services().announceReset(reset.tenantId);
    return undefined;
  },
});

export const { GET, POST, PUT, PATCH } = notAllowed(["DELETE"]);
