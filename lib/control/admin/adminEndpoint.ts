/**
 * The route factory of the admin API: the lines every app/api/admin route repeated, once. An
 * endpoint names its access (read or write), the parsers of its path parameters (`tenantIdParam`…,
 * lib/control/admin/params.ts), the shared zod schemas of its query and JSON body, and the status
 * and headers of its answer; `handle` gets them parsed and returns the answer as a value (undefined:
 * 204 without a body). Authorization, the tenant scope, the change-reach headers and the mapping of
 * a thrown AppError code to its status are adminRoute's (./adminRoute.ts). `answer`, when given, is
 * the answer's zod schema (the one the OpenAPI document renders): `handle` must then return its
 * inferred type.
 *
 * Order, as the routes had it: the guard, then path parameters, then the query, then the body (a 404
 * for an unknown id wins over a 422 for its body).
 */
import type { z } from "zod";
import type { Actor } from "../../policy/audit/auditLog";
import { readJsonBody } from "../../http/readJsonBody";
import { parseInput } from "../../http/validate";
import { adminRoute, type RouteContext } from "./adminRoute";
import type { Access } from "./authorize";
import type { TenantOf } from "./tenantScope";

type Parsers = Record<string, (raw: string) => string>;
type RawParams<S extends Parsers> = { [K in keyof S]: string };
type ParsedParams<S extends Parsers> = { [K in keyof S]: ReturnType<S[K]> };

export interface AdminCall<S extends Parsers, Q, B> {
  request: Request;
  actor: Actor;
  params: ParsedParams<S>;
  query: Q;
  body: B;
}

export interface EndpointSpec<S extends Parsers, Q, B, R> {
  /** How each path parameter is read (and refused); the handler gets the parsed values. */
  params?: S;
  /** The query's schema (all parameters as strings); a failure is a 422 naming the parameter. */
  query?: z.ZodType<Q, unknown>;
  /** The JSON body's schema (a function: built per call); bad JSON is a 400, a failure a 422. */
  body?: z.ZodType<B, unknown> | (() => z.ZodType<B, unknown>);
  /** The answer's schema, for its type only. */
  answer?: z.ZodType<R, unknown>;
  /** The status of an answer with a value (200). */
  status?: number;
  /** Extra headers of the answer (e.g. `cache-control: no-store`). */
  headers?: Record<string, string>;
  /** A further check of the actor, made before anything of the request is read (e.g. assertUnscopedAdmin). */
  guard?: (actor: Actor) => void;
  /** The resource's tenant where the path parameters do not name it (./tenantScope.ts). */
  tenantOf?: TenantOf<RawParams<S>>;
  /**
   * The handler answers an operator limited to tenants only rows of its tenants (allowedTenants),
   * so the call is not refused as instance-wide for it; a tenant-scoped token is still refused
   * (the contract's 403 on instance-wide calls). Only for reads that list per-tenant rows.
   */
  filtersByTenant?: boolean;
  handle(call: AdminCall<S, Q, B>): Promise<R | undefined>;
}

function parsedParams<S extends Parsers>(parsers: S | undefined, raw: RawParams<S>): ParsedParams<S> {
  const out: Record<string, string> = {};
  for (const [name, parse] of Object.entries(parsers ?? {})) out[name] = parse(raw[name] ?? "");
  return out as ParsedParams<S>;
}

export function adminEndpoint<S extends Parsers = Record<never, never>, Q = undefined, B = undefined, R = unknown>(
  access: Access,
  spec: EndpointSpec<S, Q, B, R>,
): (request: Request, context: RouteContext<RawParams<S>>) => Promise<Response> {
  return adminRoute<RawParams<S>>(
    access,
    async (request, actor, raw) => {
      spec.guard?.(actor);
      const params = parsedParams(spec.params, raw);
      const query = (
        spec.query ? parseInput(spec.query, Object.fromEntries(new URL(request.url).searchParams)) : undefined
      ) as Q;
      const schema = typeof spec.body === "function" ? spec.body() : spec.body;
      const body = (schema ? parseInput(schema, await readJsonBody(request)) : undefined) as B;
      const value = await spec.handle({ request, actor, params, query, body });
      if (value === undefined) return new Response(null, { status: 204, headers: spec.headers });
      return Response.json(value, { status: spec.status ?? 200, headers: spec.headers });
    },
    { tenantOf: spec.tenantOf, filtersByTenant: spec.filtersByTenant },
  );
}
