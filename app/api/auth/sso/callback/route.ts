import { safeNextPath } from "@/components/shell/safeNextPath";
import { ssoCallback } from "@/lib/control/auth/ssoLogin";
import { notAllowed } from "@/lib/http/methodNotAllowed";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Single sign-on, step 2: the identity provider's redirect back (lib/control/auth/ssoLogin.ts). */
export async function GET(request: Request): Promise<Response> {
  return ssoCallback(request, safeNextPath);
}

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
