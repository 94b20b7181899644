import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { ruleNameParam, tenantIdParam } from "@/lib/control/admin/params";
import { identifierOverrideListSchema } from "@/lib/policy/overrides/overrideSchema";
import { getOverrides, replaceOverrides } from "@/lib/policy/overrides/overrideStore";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = { tenantId: tenantIdParam, rule: ruleNameParam };

/** 200 `{ rule, overrides }`; 404 for an unknown tenant or rule, or a rule of another scope than identifier. */
export const GET = adminEndpoint("read", {
  params,
  handle: ({ params }) => getOverrides(params.tenantId, params.rule),
});

/** Replaces the rule's overrides: 200 with them as stored, in force on this instance and announced. */
export const PUT = adminEndpoint("write", {
  params,
  body: identifierOverrideListSchema,
  handle: async ({ actor, params, body }) => {
    const saved = await replaceOverrides(actor, params.tenantId, params.rule, body);
    await services().announce(saved.tenantId);
    return { rule: saved.rule, overrides: saved.overrides };
  },
});

export const { POST, PATCH, DELETE } = notAllowed(["GET", "PUT"]);
