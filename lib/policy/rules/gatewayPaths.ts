/**
 * Rule paths under /api/v1 that name a gateway path (contract v3, rule field `match`): gateway
 * requests are matched by the path forwarded to the upstream, without /api/v1
 * (lib/dataplane/requestRoute.ts), so `/api/v1/orders/*` never matches `/api/v1/orders/42` through
 * the gateway; `/orders/*` does. Only Sluice's own routes, echo and check (and authorize, which
 * decides for the forwarded URI), are matched with their full path.
 * `gatewayPathOf` is the rewrite the migration prisma/migrations/20261228010000_rule_paths_as_seen
 * applied to the rules of tenants with an upstream (the same cases: its int test holds both to
 * one table); the rule editor warns with it (components/rules). Free of server-only imports: the
 * dashboard runs it.
 */

/** The segments after /api/v1 that are Sluice's own routes: rules on them keep their full path. */
const OWN_ROUTES: ReadonlySet<string> = new Set(["echo", "check", "authorize"]);

/**
 * The gateway path a rule path under /api/v1 stands for, or null when it is not under /api/v1 or
 * names one of Sluice's own routes: `/api/v1/orders/*` is `/orders/*`, `/api/v1/**` is `/**`,
 * `/api/v1` is `/`. With `caseInsensitive` the prefix and the route are compared in any case, as
 * the rule compares them.
 */
export function gatewayPathOf(path: string, caseInsensitive = false): string | null {
  const compared = caseInsensitive ? path.toLowerCase() : path;
  if (compared !== "/api/v1" && !compared.startsWith("/api/v1/")) return null;
  const first = compared.split("/")[3] ?? "";
  if (OWN_ROUTES.has(first)) return null;
  const rest = path.slice("/api/v1".length);
  return rest === "" || rest === "/" ? "/" : rest;
}

/**
 * For a tenant with a gateway upstream: why a rule path never matches a gateway request, and what
 * it should say, or null when it is fine. A warning, not an error: the same path still matches a
 * forwarded URI (forward auth) or a tenant host's path that starts with /api/v1.
 */
export function gatewayPathWarning(path: string, caseInsensitive = false): string | null {
  const meant = gatewayPathOf(path, caseInsensitive);
  if (meant === null) return null;
  return `${path} never matches a request through the gateway: gateway paths are matched without /api/v1 (write ${meant}). It matches only a forwarded URI or a tenant host's path that starts with /api/v1.`;
}
