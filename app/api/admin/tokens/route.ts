import { adminRoute } from "@/lib/control/admin/adminRoute";
import { assertUnscopedAdmin } from "@/lib/control/admin/tenantScope";
import { createTokenSchema, type CreatedTokenAnswer } from "@/lib/control/tokens/tokenSchemas";
import { createToken, listTokens } from "@/lib/control/tokens/tokenStore";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = adminRoute("read", async (_request, actor) => {
  assertUnscopedAdmin(actor);
  return Response.json(await listTokens());
});

/** 201 with the token's secret: the only time it is shown. */
export const POST = adminRoute("write", async (request, actor) => {
  assertUnscopedAdmin(actor);
  const input = parseInput(createTokenSchema(), await readJsonBody(request));
  const { id, name, role, tenantId, expiresAt, token } = await createToken(actor, input);
  const answer: CreatedTokenAnswer = { id, name, role, tenantId, expiresAt, token };
  return Response.json(answer, { status: 201 });
});

export const { PUT, PATCH, DELETE } = notAllowed(["GET", "POST"]);
