/**
 * The gateway: a tenant's upstream, /api/admin/tenants/{tenantId}/upstream, and its hosts and
 * callers, /api/admin/tenants/{tenantId}/identity (forwarding itself is in dataPlane.ts).
 */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { identitySchema } from "../../../policy/identity/identitySchema";
import {
  savedUpstreamSchema,
  upstreamSchema,
  upstreamViewSchema as storedUpstreamSchema,
} from "../../../policy/upstreams/upstreamSchema";
import { adminOperation, errors, jsonAnswer, jsonBody, noContent, tenantIdPath } from "../common";

/** As stored: every field present, hosts lower case. */
const storedIdentitySchema = z.object({
  hosts: z
    .array(z.string())
    .meta({ description: "Host names (lower case, no port) whose requests are this tenant's." }),
  apiKeys: z.boolean().meta({ description: "Whether Sluice API keys are accepted on those hosts." }),
  jwt: z
    .object({
      issuer: z.string().optional(),
      audience: z.string().optional(),
      jwksUrl: z.string().optional(),
      jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).optional(),
      subjectClaim: z.string(),
      tierClaim: z.string().optional(),
    })
    .nullable()
    .meta({ description: "How JWT callers are verified; null: no JWT callers." }),
  anonymous: z
    .boolean()
    .meta({ description: "Whether callers with no credential at all are admitted (and limited per IP)." }),
});

/** POST .../upstream/test: what one request to the upstream found. */
const upstreamTestSchema = z.object({
  ok: z.boolean().meta({ description: "The upstream answered with a status below 500." }),
  status: z.number().int().nullable().meta({ description: "The upstream's status; null when it did not answer." }),
  latencyMs: z.number().int().meta({ description: "From sending to the answer's headers (or the failure), ms." }),
  error: z.string().nullable().meta({ description: "Why it failed, in words (no address); null when it answered." }),
});

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
