import { notAllowed } from "@/lib/http/methodNotAllowed";
import { services } from "@/lib/runtime/services";
import { tenantIdParam } from "@/lib/control/admin/params";
import { ruleListRoutes } from "@/lib/control/admin/ruleListRoutes";
import { tenantRulesSchema } from "@/lib/control/admin/schemas";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const { GET, PUT } = ruleListRoutes<{ tenantId: string }>(
  (p) => ({ kind: "tenant", tenantId: tenantIdParam(p.tenantId) }),
  tenantRulesSchema,
  (tenantId) => services().announce(tenantId),
);

export const { POST, PATCH, DELETE } = notAllowed(["GET", "PUT"]);
