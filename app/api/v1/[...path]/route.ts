// Every other path under /api/v1 is still authenticated and limited, then answered 404.
import { problemFor } from "@/lib/http/problem";
import { protectedRoute } from "@/lib/enforce/protectedRoute";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const notFound = protectedRoute(async (request) => problemFor("not_found", `No API route at ${new URL(request.url).pathname}.`));

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
