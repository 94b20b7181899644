import { loggedOutResponse } from "@/lib/control/auth/sessionResponses";
import { endRequestSession } from "@/lib/control/auth/sessionResolver";
import { ssoLogoutUrl } from "@/lib/control/auth/ssoLogout";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { problemFromError } from "@/lib/http/problem";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    const ended = await endRequestSession(request);
    return loggedOutResponse(request, await ssoLogoutUrl(request, ended));
  } catch (error) {
    return problemFromError(error);
  }
}

export const { GET, PUT, PATCH, DELETE } = notAllowed(["POST"]);
