import { notAllowed } from "@/lib/http/methodNotAllowed";
import { createKey, listKeys } from "@/lib/policy/keys/keyStore";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantIdParam } from "@/lib/control/admin/params";
import { createKeySchema } from "@/lib/control/admin/schemas";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = { tenantId: tenantIdParam };

export const GET = adminEndpoint("read", { params, handle: ({ params }) => listKeys(params.tenantId) });

export const POST = adminEndpoint("write", {
  params,
  body: createKeySchema,
  status: 201,
  headers: { "cache-control": "no-store" },
  handle: async ({ actor, params: { tenantId }, body }) => {
    const created = await createKey(
      actor,
      tenantId,
      body.name,
      body.expiresAt ?? null,
      body.tier ?? null,
      body.billingDay ?? null,
    );
    await services().announce(tenantId, created);
    return created;
  },
});

export const { PUT, PATCH, DELETE } = notAllowed(["GET", "POST"]);
