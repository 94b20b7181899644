import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { auditIdParam } from "@/lib/control/admin/params";
import { revertChange } from "@/lib/control/admin/revertChange";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { auditId: string };

/** 200 with the revert's own audit event, once the change is in force on this instance and announced. */
export const POST = adminRoute<Params>("write", async (_request, actor, params) => {
  const reverted = await revertChange(actor, auditIdParam(params.auditId));
  await services().announce(reverted.tenantId);
  return Response.json(reverted.revert);
});

export const { GET, PUT, PATCH, DELETE } = notAllowed(["POST"]);
