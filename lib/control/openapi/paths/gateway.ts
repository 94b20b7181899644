/** The gateway: a tenant's upstream, /api/admin/tenants/{tenantId}/upstream (forwarding itself is in dataPlane.ts). */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { upstreamSchema } from "../../../policy/upstreams/upstreamSchema";
import { adminOperation, errors, jsonAnswer, jsonBody, noContent, tenantIdPath } from "../common";

/** As stored: the URL normalised (no trailing `/`), the timeout filled in. */
export const storedUpstreamSchema = z.object({
  url: z.string().meta({
    description: "Absolute http(s) URL, normalised without a trailing `/`; its path prefixes the forwarded path.",
  }),
  timeoutMs: z.number().int().meta({ description: "How long the upstream may take to answer (status and headers)." }),
});

export const gatewayPaths: ZodOpenApiPathsObject = {
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
        "200": jsonAnswer("The upstream as stored.", storedUpstreamSchema),
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
};
