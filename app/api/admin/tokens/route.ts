import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { assertUnscopedAdmin } from "@/lib/control/admin/tenantScope";
import { createdTokenSchema, createTokenSchema } from "@/lib/control/tokens/tokenSchemas";
import { createToken, listTokens } from "@/lib/control/tokens/tokenStore";
import { notAllowed } from "@/lib/http/methodNotAllowed";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = adminEndpoint("read", { guard: assertUnscopedAdmin, handle: () => listTokens() });

/** 201 with the token's secret: the only time it is shown. */
export const POST = adminEndpoint("write", {
  guard: assertUnscopedAdmin,
  body: () => createTokenSchema(),
  status: 201,
  answer: createdTokenSchema,
  handle: async ({ actor, body }) => {
    const { id, name, role, tenantId, expiresAt, token } = await createToken(actor, body);
    return { id, name, role, tenantId, expiresAt, token };
  },
});

export const { PUT, PATCH, DELETE } = notAllowed(["GET", "POST"]);
