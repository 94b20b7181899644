/**
 * The client-facing API under /api/v1: the demo route, the decision service and the gateway.
 * Every call is authenticated with an API key and limited (CONTRACT.md "One decision per request").
 */
import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathItemObject, ZodOpenApiPathsObject } from "zod-openapi";
import { checkAnswerSchema, echoAnswerSchema } from "../../../policy/dataPlaneAnswers";
import { checkRequestSchema } from "../../../policy/rules/checkRequest";
import { API_KEY_SECURITY, errors, jsonAnswer, jsonBody, rateLimitHeaderRefs } from "../common";

/** What every limited call may answer besides its own success. */
const limitedErrors = () =>
  errors("bad_request", "unauthorized", "forbidden", "rate_limited", "limiter_unavailable", "internal");

const restPath = z.object({ rest: z.string().meta({ description: "Any path below (one or more segments)." }) });
const anyPath = z.object({
  path: z.string().meta({ description: "Any path other than echo, check and authorize (one or more segments)." }),
});

function limited(op: Omit<ZodOpenApiOperationObject, "security">): ZodOpenApiOperationObject {
  return {
    tags: ["Client API"],
    security: API_KEY_SECURITY,
    ...op,
    responses: { ...op.responses, ...limitedErrors() },
  };
}

const METHODS = ["get", "head", "post", "put", "patch", "delete", "options"] as const;

/** The same operation under every method, with method-specific operation ids. */
function everyMethod(
  idBase: string,
  make: (method: string) => Omit<ZodOpenApiOperationObject, "security" | "operationId">,
): ZodOpenApiPathItemObject {
  return Object.fromEntries(
    METHODS.map((m) => [m, limited({ operationId: `${idBase}${m.charAt(0).toUpperCase()}${m.slice(1)}`, ...make(m) })]),
  );
}

const echo = (params?: z.ZodObject) => () => ({
  summary: "The demo protected route",
  description: "Authenticated and limited like every call under /api/v1; answers who called how.",
  ...(params ? { requestParams: { path: params } } : {}),
  responses: { "200": jsonAnswer("Admitted.", echoAnswerSchema, rateLimitHeaderRefs()) },
});

export const dataPlanePaths: ZodOpenApiPathsObject = {
  "/api/v1/echo": everyMethod("echo", echo()),
  "/api/v1/echo/{rest}": everyMethod("echoBelow", echo(restPath)),
  "/api/v1/check": {
    post: limited({
      operationId: "check",
      summary: "Decide for an identifier (the decision service)",
      description:
        "Charges the tenant's `identifier`-scope rule named `rule` for `identifier` (not for the key) and answers the verdict, allowed or not, with 200. The call itself is subject to the key's matching rules.",
      requestBody: jsonBody(checkRequestSchema),
      responses: {
        "200": jsonAnswer(
          "The verdict (a refusal is `allowed: false`, still 200).",
          checkAnswerSchema,
          rateLimitHeaderRefs(),
        ),
        ...errors("not_found", "invalid", "payload_too_large"),
      },
    }),
    options: limited({
      operationId: "checkOptions",
      summary: "Methods of the decision service (authenticated and limited)",
      responses: { "204": { description: "Admitted: `Allow: POST, OPTIONS`.", headers: rateLimitHeaderRefs() } },
    }),
  },
  "/api/v1/authorize": everyMethod("authorize", () => ({
    summary: "Forward auth: decide for a request a proxy holds",
    description:
      "For Caddy `forward_auth`, Traefik `ForwardAuth`, nginx `auth_request`: the original method and URI in `X-Forwarded-Method` / `X-Forwarded-Uri` (or `X-Original-Method` / `X-Original-URI`), the client in `X-Forwarded-For` as SLUICE_TRUST_PROXY allows. Rules match that method and path; one decision per call. `header`-scope rules read the client's headers as the proxy passes them on, `query`-scope rules the query of the forwarded URI. A missing forwarded method or URI, a forwarded path that cannot be decoded once, or a forwarded URI with a fragment (`#`) or userinfo, is a 400. Every refusal (4xx, 5xx) also carries its problem body as JSON in the `X-Sluice-Problem` header (printable ASCII), for proxies that pass only headers on (nginx `auth_request`).",
    responses: {
      "200": {
        description: "Admitted: empty body, the rate-limit headers, `X-Sluice-Tenant` and `X-Sluice-Key`.",
        headers: rateLimitHeaderRefs(),
      },
    },
  })),
  "/api/v1/{path}": everyMethod("gateway", () => ({
    summary: "Gateway: forward to the tenant's upstream",
    description:
      "Once admitted, forwarded to the tenant's upstream with `/api/v1` removed, as sent; the upstream's status, headers and body come back with the rate-limit headers added. Rules read the path without `;parameters` (`/login;jsessionid=1` is `/login`) and a method-override header's method as well as the request's. 400: a fragment (`#`) in the target, a `.`/`..` segment once parameters are stripped, an ambiguous method override, a repeated header or query parameter a `header`/`query` rule keys on. No upstream: 404; unreachable: 502; no answer in time: 504. On a tenant's host (PUT /api/admin/tenants/{tenantId}/identity) every path is the tenant's and is forwarded as sent, nothing removed; its callers are its Sluice keys, JWTs and anonymous callers as configured (401 for a credential present but invalid; 503 while its JWKS was never fetched).",
    requestParams: { path: anyPath },
    responses: {
      "200": {
        description: "The upstream's answer (any status), with the rate-limit headers.",
        headers: rateLimitHeaderRefs(),
      },
      ...errors("not_found"),
      "502": { $ref: "#/components/responses/BadGateway" },
      "504": { $ref: "#/components/responses/GatewayTimeout" },
    },
  })),
};
