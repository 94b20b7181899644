// Any path under /api (and /api itself) that no route serves: a 404 problem (Next's own 404 is an HTML page), for
// every method. Paths under /api/v1 never get here: the data plane serves them (lib/dataplane).
import { problemFor } from "@/lib/http/problem";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const notFound = async (request: Request): Promise<Response> =>
  problemFor("not_found", `No API route at ${new URL(request.url).pathname}.`);

export {
  notFound as GET,
  notFound as HEAD,
  notFound as POST,
  notFound as PUT,
  notFound as PATCH,
  notFound as DELETE,
  notFound as OPTIONS,
};
