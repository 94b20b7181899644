import { notAllowed } from "@/lib/http/methodNotAllowed";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantIdParam } from "@/lib/control/admin/params";
import { policyDocumentSchema, policyQuerySchema } from "@/lib/control/policyDocument/policyDocumentSchema";
import { applyPolicy, exportPolicy } from "@/lib/control/policyDocument/policyDocumentStore";
import type { AppliedPolicyAnswer } from "@/lib/control/policyDocument/policyAnswers";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string };

/** 200 with the tenant's policy document (never a secret) and its ETag; 404 for an unknown tenant. */
export const GET = adminRoute<Params>("read", async (_request, _actor, params) => {
  const { document, etag } = await exportPolicy(tenantIdParam(params.tenantId));
  return Response.json(document, { headers: { etag, "cache-control": "no-store" } });
});

/**
 * Applies a document atomically: 200 `{ changed }` (empty: nothing changed, nothing audited), in
 * force on this instance and announced; `?dryRun=1` answers the same and changes nothing; 412 for
 * a stale If-Match; 422 for an invalid document.
 */
export const PUT = adminRoute<Params>("write", async (request, actor, params) => {
  const tenantId = tenantIdParam(params.tenantId);
  const query = parseInput(policyQuerySchema, Object.fromEntries(new URL(request.url).searchParams), ["query"]);
  const document = parseInput(policyDocumentSchema, await readJsonBody(request));
  const applied = await applyPolicy(actor, tenantId, document, {
    dryRun: query.dryRun,
    ifMatch: request.headers.get("if-match"),
  });
  if (!query.dryRun && applied.changed.length > 0) await services().announce(tenantId);
  return Response.json({ changed: applied.changed, dryRun: query.dryRun } satisfies AppliedPolicyAnswer, {
    headers: { etag: applied.etag, "cache-control": "no-store" },
  });
});

export const { POST, PATCH, DELETE } = notAllowed(["GET", "PUT"]);
