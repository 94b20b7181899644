import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantIdParam } from "@/lib/control/admin/params";
import { identitySchema, storedIdentitySchema } from "@/lib/policy/identity/identitySchema";
import { getIdentity, putIdentity } from "@/lib/policy/identity/identityStore";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = { tenantId: tenantIdParam };

/** 200 with the tenant's hosts and callers (the defaults when never set). */
export const GET = adminEndpoint("read", {
  params,
  answer: storedIdentitySchema,
  handle: ({ params }) => getIdentity(params.tenantId),
});

/** Replaces them: 200 with the settings as stored, in force on this instance and announced; 409 for another tenant's host. */
export const PUT = adminEndpoint("write", {
  params,
  body: identitySchema,
  answer: storedIdentitySchema,
  handle: async ({ actor, params, body }) => {
    const saved = await putIdentity(actor, params.tenantId, body);
    await services().announce(saved.tenantId);
    return saved.identity;
  },
});

export const { POST, PATCH, DELETE } = notAllowed(["GET", "PUT"]);
