import { loggedOutResponse } from "@/lib/control/auth/sessionResponses";
import { endRequestSession } from "@/lib/control/auth/sessionResolver";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { problemFromError } from "@/lib/http/problem";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    await endRequestSession(request);
    return loggedOutResponse(request);
  } catch (error) {
    return problemFromError(error);
  }
}

export const { GET, PUT, PATCH, DELETE } = notAllowed(["POST"]);
