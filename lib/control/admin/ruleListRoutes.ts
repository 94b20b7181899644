/**
 * GET and PUT of one owner's rule list (a tenant's, or a key's overrides): the same handling for
 * both owners, which differ only in how the owner is read from the path and which schema applies.
 * PUT replaces the whole list atomically, then announces the change to every instance through
 * `announce`, which the app/ route passes in (the wiring, lib/runtime, sits above this layer).
 */
import type { z } from "zod";
import { readJsonBody } from "../../http/readJsonBody";
import { getRules, replaceRules, type RuleOwner } from "../../policy/rules/ruleStore";
import type { Rule } from "../../policy/rules/ruleSchema";
import { adminRoute } from "./adminRoute";
import { parseRuleList } from "./ruleBody";

export function ruleListRoutes<P>(
  ownerOf: (params: P) => RuleOwner,
  schema: z.ZodType<Rule[], unknown>,
  announce: (tenantId: string) => Promise<void>,
) {
  return {
    GET: adminRoute<P>("read", async (_request, _actor, params) => Response.json(await getRules(ownerOf(params)))),
    PUT: adminRoute<P>("write", async (request, actor, params) => {
      const owner = ownerOf(params);
      const rules = parseRuleList(await readJsonBody(request), schema);
      const saved = await replaceRules(actor, owner, rules);
      await announce(saved.tenantId);
      return Response.json(saved.rules);
    }),
  };
}
