import { logIn } from "@/lib/control/auth/login";
import { loginSchema } from "@/lib/control/auth/operatorSchemas";
import { loggedInResponse } from "@/lib/control/auth/sessionResponses";
import { assertSameOriginLogin } from "@/lib/control/auth/sessionResolver";
import { config } from "@/lib/config/config";
import { clientIp } from "@/lib/http/clientIp";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { problemFromError } from "@/lib/http/problem";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  try {
    assertSameOriginLogin(request);
    const input = parseInput(loginSchema, await readJsonBody(request));
    const loggedIn = await logIn(input, clientIp(request.headers, config().trustProxy), services().limiter);
    return loggedInResponse(request, loggedIn);
  } catch (error) {
    return problemFromError(error);
  }
}

export const { GET, PUT, PATCH, DELETE } = notAllowed(["POST"]);
