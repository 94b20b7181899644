import { adminRoute } from "@/lib/admin/adminRoute";
import { keyIdParam } from "@/lib/admin/params";
import { parseRuleList } from "@/lib/admin/ruleBody";
import { keyRulesSchema } from "@/lib/admin/schemas";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { getRules, replaceRules } from "@/lib/rules/ruleStore";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { keyId: string };

export const GET = adminRoute<Params>("read", async (_request, _actor, params) =>
  Response.json(await getRules({ kind: "key", keyId: keyIdParam(params.keyId) })),
);

export const PUT = adminRoute<Params>("write", async (request, actor, params) => {
  const keyId = keyIdParam(params.keyId);
  const rules = parseRuleList(await readJsonBody(request), keyRulesSchema);
  const saved = await replaceRules(actor, { kind: "key", keyId }, rules);
  await services().announce(saved.tenantId);
  return Response.json(saved.rules);
});
