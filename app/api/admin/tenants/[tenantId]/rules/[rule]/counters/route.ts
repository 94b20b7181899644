import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { resetIdentifierCounters } from "@/lib/control/admin/counterResetService";
import { ruleNameParam, tenantIdParam } from "@/lib/control/admin/params";
import { identifierResetQuerySchema } from "@/lib/control/admin/querySchemas";
import { parseInput } from "@/lib/http/validate";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string; rule: string };

/**
 * `?identifier=<identifier>`: resets the counter of one identifier of the tenant's identifier-scope
 * rule `rule` (the identifier is a query parameter: it may hold any character, `/` included).
 */
export const DELETE = adminRoute<Params>("write", async (request, actor, params) => {
  const tenantId = tenantIdParam(params.tenantId);
  const rule = ruleNameParam(params.rule);
  const query = parseInput(identifierResetQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  await resetIdentifierCounters(services().counterReset, actor, tenantId, rule, query.identifier);
  await services().announceReset(tenantId);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, PATCH } = notAllowed(["DELETE"]);
