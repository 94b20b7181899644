import { notAllowed } from "@/lib/http/methodNotAllowed";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { ruleNameParam, tenantIdParam } from "@/lib/control/admin/params";
import { identifierOverrideListSchema } from "@/lib/policy/overrides/overrideSchema";
import { getOverrides, replaceOverrides } from "@/lib/policy/overrides/overrideStore";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string; rule: string };

/** 200 `{ rule, overrides }`; 404 for an unknown tenant or rule, or a rule of another scope than identifier. */
export const GET = adminRoute<Params>("read", async (_request, _actor, params) =>
  Response.json(await getOverrides(tenantIdParam(params.tenantId), ruleNameParam(params.rule))),
);

/** Replaces the rule's overrides: 200 with them as stored, in force on this instance and announced. */
export const PUT = adminRoute<Params>("write", async (request, actor, params) => {
  const tenantId = tenantIdParam(params.tenantId);
  const rule = ruleNameParam(params.rule);
  const overrides = parseInput(identifierOverrideListSchema, await readJsonBody(request));
  const saved = await replaceOverrides(actor, tenantId, rule, overrides);
  await services().announce(saved.tenantId);
  return Response.json({ rule: saved.rule, overrides: saved.overrides });
});

export const { POST, PATCH, DELETE } = notAllowed(["GET", "PUT"]);
