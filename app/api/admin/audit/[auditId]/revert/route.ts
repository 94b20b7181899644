import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { auditIdParam } from "@/lib/control/admin/params";
import { revertChange } from "@/lib/control/admin/revertChange";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** 200 with the revert's own audit event, once the change is in force on this instance and announced. */
export const POST = adminEndpoint("write", {
  params: { auditId: auditIdParam },
  handle: async ({ actor, params }) => {
    const reverted = await revertChange(actor, params.auditId);
    await services().announce(reverted.tenantId);
    return reverted.revert;
  },
});

export const { GET, PUT, PATCH, DELETE } = notAllowed(["POST"]);
