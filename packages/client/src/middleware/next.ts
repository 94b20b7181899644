/**
 * Protects a Next.js route handler (App Router) through Sluice's decision API:
 *
 *   export const POST = withSluice(async (request) => Response.json(...), {
 *     client, rule: "per-user", identifier: (request) => request.headers.get("x-user-id") ?? "anonymous",
 *   });
 *
 * A refused request gets 429 with Retry-After and a problem+json body and never reaches the
 * handler; an admitted one reaches it and its answer gets the rate-limit headers.
 */
import { PROBLEM_TYPE, protect, type ProtectOptions } from "./protect.js";

export function withSluice<Ctx = unknown>(
  handler: (request: Request, context: Ctx) => Response | Promise<Response>,
  options: ProtectOptions<Request>,
): (request: Request, context: Ctx) => Promise<Response> {
  return async (request, context) => {
    const verdict = await protect(options, request, request.signal);
    if (!verdict.pass) {
      return new Response(JSON.stringify(verdict.body), {
        status: verdict.status,
        headers: { ...verdict.headers, "content-type": PROBLEM_TYPE },
      });
    }
    const response = await handler(request, context);
    if (Object.keys(verdict.headers).length === 0) return response;
    // A handler's Response may have immutable headers (Response.redirect, a fetched response): copy.
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(verdict.headers)) headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
