import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantIdParam } from "@/lib/control/admin/params";
import { accessListsSchema } from "@/lib/policy/access/accessListSchema";
import { getAccessLists, replaceAccessLists } from "@/lib/policy/access/accessListStore";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = { tenantId: tenantIdParam };

/** 200 `{ allow, deny }` (both empty when none were set); 404 for an unknown tenant. */
export const GET = adminEndpoint("read", { params, handle: ({ params }) => getAccessLists(params.tenantId) });

/** Replaces both lists: 200 with them as stored, in force on this instance and announced. */
export const PUT = adminEndpoint("write", {
  params,
  body: accessListsSchema,
  handle: async ({ actor, params, body }) => {
    const saved = await replaceAccessLists(actor, params.tenantId, body);
    await services().announce(saved.tenantId);
    return saved.lists;
  },
});

export const { POST, PATCH, DELETE } = notAllowed(["GET", "PUT"]);
