/**
 * The gateway: a tenant's upstream, /api/admin/tenants/{tenantId}/upstream, and its hosts and
 * callers, /api/admin/tenants/{tenantId}/identity (forwarding itself is in dataPlane.ts).
 */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { identitySchema, storedIdentitySchema } from "../../../policy/identity/identitySchema";
import {
  savedUpstreamSchema,
  upstreamTestSchema,
  upstreamSchema,
  upstreamViewSchema as storedUpstreamSchema,
} from "../../../policy/upstreams/upstreamSchema";
import { adminOperation, errors, jsonAnswer, jsonBody, noContent, tenantIdPath } from "../common";

export const gatewayPaths: ZodOpenApiPathsObject = {
  "/api/admin/tenants/{tenantId}/upstream/test": {
    post: adminOperation("write", {
      operationId: "testUpstream",
      tags: ["Gateway"],
      summary: "Test the connection to the tenant's upstream",
      description:
        "Sends one plain GET to the upstream's URL from the server, through the same address guard as the gateway (never a link-local address) and with its timeout; changes nothing. Answers 200 whatever the upstream did.",
      requestParams: { path: tenantIdPath },
      responses: { "200": jsonAnswer("What the request found.", upstreamTestSchema), ...errors("not_found") },
    }),
  },
  "/api/admin/tenants/{tenantId}/upstream": {
    get: adminOperation("read", {
      operationId: "getUpstream",
      tags: ["Gateway"],
      summary: "The tenant's gateway upstream",
      requestParams: { path: tenantIdPath },
      responses: { "200": jsonAnswer("The upstream.", storedUpstreamSchema), ...errors("not_found") },
    }),
    put: adminOperation("write", {
      operationId: "putUpstream",
      tags: ["Gateway"],
      summary: "Set the tenant's gateway upstream",
      description:
        "Requests under /api/v1 other than echo, check and authorize are then forwarded to it once admitted. Audited; in force everywhere within 1 s.",
      requestParams: { path: tenantIdPath },
      requestBody: jsonBody(upstreamSchema),
      responses: {
        "200": jsonAnswer("The upstream as stored.", savedUpstreamSchema),
        ...errors("not_found", "invalid"),
      },
    }),
    delete: adminOperation("write", {
      operationId: "deleteUpstream",
      tags: ["Gateway"],
      summary: "Remove the tenant's gateway upstream",
      requestParams: { path: tenantIdPath },
      responses: { "204": noContent("Removed."), ...errors("not_found") },
    }),
  },
  "/api/admin/tenants/{tenantId}/identity": {
    get: adminOperation("read", {
      operationId: "getIdentity",
      tags: ["Gateway"],
      summary: "The tenant's hosts and callers",
      description:
        'Defaults (never set): `{ "hosts": [], "apiKeys": true, "jwt": null, "anonymous": false }`. A request whose `Host` is one of `hosts` is the tenant\'s whatever its path (docs/gateway.md).',
      requestParams: { path: tenantIdPath },
      responses: { "200": jsonAnswer("The identity settings.", storedIdentitySchema), ...errors("not_found") },
    }),
    put: adminOperation("write", {
      operationId: "putIdentity",
      tags: ["Gateway"],
      summary: "Set the tenant's hosts and callers",
      description:
        "Replaces the whole settings. Hosts: at most 100 DNS names, stored lower case; a port, path, scheme, wildcard or IP literal is a 422; a host of another tenant a 409. `jwt`: exactly one of `jwksUrl` (http/https, never link-local) or inline `jwks` with at least one public asymmetric key. Audited; in force everywhere within 1 s.",
      requestParams: { path: tenantIdPath },
      requestBody: jsonBody(identitySchema),
      responses: {
        "200": jsonAnswer("The settings as stored.", storedIdentitySchema),
        ...errors("not_found", "invalid", "conflict"),
      },
    }),
  },
};
