import { notAllowed } from "@/lib/http/methodNotAllowed";
import { AppError } from "@/lib/http/errors";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { deleteCallerGrant } from "@/lib/control/admin/callerGrantService";
import { tenantIdParam } from "@/lib/control/admin/params";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const grantIdParam = (value: string): string => {
  if (!/^[a-z0-9]{1,64}$/.test(value)) throw new AppError("not_found", `No grant ${JSON.stringify(value)}.`);
  return value;
};

/** Ends a JWT subject's or a tier's grant now (issue 33): 204, in force everywhere within 1 s; audited. */
export const DELETE = adminEndpoint("write", {
  params: { tenantId: tenantIdParam, grantId: grantIdParam },
  handle: async ({ actor, params }) => {
    await deleteCallerGrant(actor, params.tenantId, params.grantId);
    await services().announce(params.tenantId);
    return undefined;
  },
});

export const { GET, POST, PUT, PATCH } = notAllowed(["DELETE"]);
