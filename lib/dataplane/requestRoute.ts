/**
 * Which route serves a request, and the path its rules match (CONTRACT.md, rule field `match`):
 * the path the protected API sees, so one tenant's rules mean the same through the gateway, on a
 * tenant's host and through forward auth.
 * - `gateway` (under /api/v1, not echo, check or authorize): the path forwarded to the upstream,
 *   decoded: `/orders/42` for `/api/v1/orders/42`, `/` for `/api/v1` itself;
 * - `hosted` (a tenant's host): the path as sent;
 * - `authorize`: the forwarded URI's path (dataPlane.ts puts it in place of this one);
 * - `echo` and `check`, Sluice's own routes: their full path (`/api/v1/echo/a`).
 * A rule on `/api/v1/orders/*` thus never matches a gateway request (docs/rules.md); a rule on
 * `/**` matches every request, echo and check included.
 */

export type Route = "echo" | "check" | "authorize" | "gateway" | "hosted";

const API_V1 = "/api/v1";

/** A decoded path on a tenant's host: /api/v1/authorize keeps its meaning, every other is the tenant's. */
export function hostRouteOf(path: string): Route {
  return path === "/api/v1/authorize" || path === "/api/v1/authorize/" ? "authorize" : "hosted";
}

/** Which route a decoded path under /api/v1 is. */
export function routeOf(path: string): Route {
  const rest = path.slice(API_V1.length);
  const bare = rest.length > 1 && rest.endsWith("/") ? rest.slice(0, -1) : rest;
  if (bare === "/echo" || bare.startsWith("/echo/")) return "echo";
  if (bare === "/check") return "check";
  if (bare === "/authorize") return "authorize";
  return "gateway";
}

/**
 * The decoded path a route's rules match (before forward auth puts the forwarded URI's in place).
 * For the gateway it is the decoded form of what is forwarded (`rawPathAfter(rawPath, 2)`): the
 * decoded path keeps every segment boundary (an encoded `/` is a 400), so dropping its first two
 * segments drops the same two.
 */
export function rulePathOf(route: Route, path: string): string {
  if (route !== "gateway") return path;
  return path.slice(API_V1.length) || "/";
}
