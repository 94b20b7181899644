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
  signRequests: z
    .literal(true)
    .optional()
    .meta({ description: "Present when every forwarded request carries `X-Sluice-Signature` (docs/gateway.md)." }),
  secretHint: z.string().optional().meta({
    description: "`upsec_…` and the secret's last 4 characters, when signing; the secret itself is never shown again.",
  }),
});

/** The PUT's answer: with the signing secret when this PUT generated one. */
const savedUpstreamSchema = storedUpstreamSchema.extend({
  secret: z.string().optional().meta({
    description: "The new signing secret (`upsec_…`): shown only in the answer of the PUT that generated it.",
  }),
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
};
