import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { createCallerGrant, listCallerGrants } from "@/lib/control/admin/callerGrantService";
import { tenantIdParam } from "@/lib/control/admin/params";
import { callerGrantQuerySchema } from "@/lib/control/admin/querySchemas";
import { callerGrantSchema } from "@/lib/control/admin/schemas";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The tenant's running JWT-subject and tier grants (issue 33), soonest end first; `?subject=` or `?tier=` narrows. */
export const GET = adminEndpoint("read", {
  params: { tenantId: tenantIdParam },
  query: callerGrantQuerySchema,
  handle: ({ params, query }) => listCallerGrants(params.tenantId, query),
});

/** `{ units, rule?, until?, subject }` or `{ ..., tier }`: 201 with the grant, in force everywhere within 1 s. */
export const POST = adminEndpoint("write", {
  params: { tenantId: tenantIdParam },
  body: callerGrantSchema,
  status: 201,
  handle: async ({ actor, params, body }) => {
    const grant = await createCallerGrant(actor, params.tenantId, body);
    await services().announce(params.tenantId);
    return grant;
  },
});

export const { PUT, PATCH, DELETE } = notAllowed(["GET", "POST"]);
