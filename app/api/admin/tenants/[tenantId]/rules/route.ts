import { adminRoute } from "@/lib/admin/adminRoute";
import { tenantIdParam } from "@/lib/admin/params";
import { parseRuleList } from "@/lib/admin/ruleBody";
import { tenantRulesSchema } from "@/lib/admin/schemas";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { getRules, replaceRules } from "@/lib/rules/ruleStore";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string };

export const GET = adminRoute<Params>("read", async (_request, _actor, params) =>
  Response.json(await getRules({ kind: "tenant", tenantId: tenantIdParam(params.tenantId) })),
);

export const PUT = adminRoute<Params>("write", async (request, actor, params) => {
  const tenantId = tenantIdParam(params.tenantId);
  const rules = parseRuleList(await readJsonBody(request), tenantRulesSchema);
  const saved = await replaceRules(actor, { kind: "tenant", tenantId }, rules);
  await services().announce(saved.tenantId);
  return Response.json(saved.rules);
});
