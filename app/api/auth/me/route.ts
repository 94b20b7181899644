import { requestSession } from "@/lib/control/auth/sessionResolver";
import type { SessionAnswer } from "@/lib/control/auth/operatorSchemas";
import { AppError } from "@/lib/http/errors";
import { notAllowed } from "@/lib/http/methodNotAllowed";
import { problemFromError } from "@/lib/http/problem";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request): Promise<Response> {
  try {
    const session = await requestSession(request);
    if (!session) throw new AppError("unauthorized", "Not logged in.");
    const answer: SessionAnswer = { email: session.email, role: session.role, tenantIds: session.tenantIds };
    return Response.json(answer, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return problemFromError(error);
  }
}

export const { POST, PUT, PATCH, DELETE } = notAllowed(["GET"]);
