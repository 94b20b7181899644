import { notAllowed } from "@/lib/http/methodNotAllowed";
import { listTiers } from "@/lib/policy/tiers/tierStore";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantIdParam } from "@/lib/control/admin/params";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = adminEndpoint("read", {
  params: { tenantId: tenantIdParam },
  handle: ({ params }) => listTiers(params.tenantId),
});

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
