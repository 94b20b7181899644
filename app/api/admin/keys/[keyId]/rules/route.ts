import { notAllowed } from "@/lib/http/methodNotAllowed";
import { services } from "@/lib/runtime/services";
import { keyIdParam } from "@/lib/control/admin/params";
import { ruleListRoutes } from "@/lib/control/admin/ruleListRoutes";
import { keyRulesSchema } from "@/lib/control/admin/schemas";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const { GET, PUT } = ruleListRoutes<{ keyId: string }>(
  (p) => ({ kind: "key", keyId: keyIdParam(p.keyId) }),
  keyRulesSchema,
  (tenantId) => services().announce(tenantId),
);

export const { POST, PATCH, DELETE } = notAllowed(["GET", "PUT"]);
