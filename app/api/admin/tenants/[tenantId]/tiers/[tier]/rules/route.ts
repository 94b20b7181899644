import { notAllowed } from "@/lib/http/methodNotAllowed";
import { services } from "@/lib/runtime/services";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantIdParam, tierNameParam } from "@/lib/control/admin/params";
import { ruleListRoutes } from "@/lib/control/admin/ruleListRoutes";
import { tierRulesSchema } from "@/lib/control/admin/schemas";
import { deleteTierRules } from "@/lib/policy/tiers/tierStore";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string; tier: string };

export const { GET, PUT } = ruleListRoutes<Params>(
  (p) => ({ kind: "tier", tenantId: tenantIdParam(p.tenantId), tier: tierNameParam(p.tier) }),
  tierRulesSchema,
  (tenantId) => services().announce(tenantId),
);

/** Removes every rule of the tier: 204 (also when it had none). Its keys keep naming it. */
export const DELETE = adminEndpoint("write", {
  params: { tenantId: tenantIdParam, tier: tierNameParam },
  handle: async ({ actor, params }) => {
    const deleted = await deleteTierRules(actor, params.tenantId, params.tier);
    // Also when unchanged: a retry after a 503 "not yet in force" must apply it here.
    await services().announce(deleted.tenantId);
    return undefined;
  },
});

export const { POST, PATCH } = notAllowed(["GET", "PUT", "DELETE"]);
