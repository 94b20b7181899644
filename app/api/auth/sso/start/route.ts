import { safeNextPath } from "@/components/shell/safeNextPath";
import { ssoStart } from "@/lib/control/auth/ssoLogin";
import { notAllowed } from "@/lib/http/methodNotAllowed";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Single sign-on, step 1: 303 to the identity provider (lib/control/auth/ssoLogin.ts). */
export async function GET(request: Request): Promise<Response> {
  return ssoStart(request, safeNextPath(new URL(request.url).searchParams.get("next")));
}

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
