/**
 * The usage API (GET /api/admin/tenants/{tenantId}/usage): the tenant (404 when unknown), the
 * query string (lib/monitoring/usage/usageParams.ts) and the rows (usageQuery.ts), as JSON or,
 * for `Accept: text/csv` (or `format=csv`), CSV with the same rows.
 */
import { getDb } from "../../db/client";
import { getTenant } from "../../policy/tenants/tenantStore";
import { usageInput } from "../../monitoring/usage/usageParams";
import { queryUsage, usageCsv } from "../../monitoring/usage/usageQuery";
import type { UsageAnswer } from "../../monitoring/usage/usageAnswers";

export async function usageAnswer(tenantId: string, request: Request, nowMs = Date.now()): Promise<Response> {
  const input = usageInput(new URL(request.url).searchParams, nowMs);
  await getTenant(tenantId);
  const rows = await queryUsage(getDb(), tenantId, input);
  const headers = { "cache-control": "no-store", vary: "accept" };
  if (input.format === "csv" || (input.format === undefined && wantsCsv(request.headers.get("accept"))))
    return new Response(usageCsv(rows, input.groupBy), {
      headers: {
        ...headers,
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="usage-${tenantId}.csv"`,
      },
    });
  const answer: UsageAnswer = { rows };
  return Response.json(answer, { headers });
}

/** CSV when the client names text/csv ahead of (or without) JSON. */
export function wantsCsv(accept: string | null): boolean {
  if (!accept) return false;
  const types = accept.split(",").map((part) => part.split(";")[0]!.trim().toLowerCase());
  const csv = types.indexOf("text/csv");
  const json = types.indexOf("application/json");
  return csv !== -1 && (json === -1 || csv < json);
}
