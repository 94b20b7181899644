/**
 * 405 as a problem response with an `Allow` header, for the methods a route does not serve
 * (Next's own 405 has neither a body nor `Allow`). Routes export it under the missing methods:
 * `export const { PUT, PATCH, DELETE } = notAllowed(["GET", "POST"]);`
 */
import { problemFor } from "./problem";

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Handler = () => Promise<Response>;

export function notAllowed(allowed: Method[]): Record<Method, Handler> {
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : [])].join(", ");
  const handler: Handler = async () =>
    problemFor("method_not_allowed", `This route serves ${allow}.`, {}, { Allow: allow });
  return { GET: handler, POST: handler, PUT: handler, PATCH: handler, DELETE: handler };
}
