import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { resetIdentifierCounters } from "@/lib/control/admin/counterResetService";
import { ruleNameParam, tenantIdParam } from "@/lib/control/admin/params";
import { identifierResetQuerySchema } from "@/lib/control/admin/querySchemas";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * `?identifier=<identifier>`: resets the counter of one identifier of the tenant's identifier-scope
 * rule `rule` (the identifier is a query parameter: it may hold any character, `/` included).
 */
export const DELETE = adminEndpoint("write", {
  params: { tenantId: tenantIdParam, rule: ruleNameParam },
  query: identifierResetQuerySchema,
  handle: async ({ actor, params: { tenantId, rule }, query }) => {
    await resetIdentifierCounters(services().counterReset, actor, tenantId, rule, query.identifier);
    await services().announceReset(tenantId);
    return undefined;
  },
});

export const { GET, POST, PUT, PATCH } = notAllowed(["DELETE"]);
