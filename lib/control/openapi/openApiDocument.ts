/**
 * The OpenAPI 3.1 document of Sluice's HTTP API, served by GET /api/openapi.json and read by the
 * dashboard's docs page and the TypeScript client's type generation (packages/client).
 *
 * Request bodies and query parameters are the very zod schemas the routes validate with, rendered
 * as their input (what a caller sends); answers are rendered as output. Built once per process and
 * cached: the schemas are fixed at build time. Throws if a route group is malformed (a path listed
 * twice, or a schema zod cannot render): a programming error, caught by openApiDocument.test.ts.
 */
import { createDocument, type ZodOpenApiPathsObject } from "zod-openapi";
import {
  errorResponseComponents,
  problemSchema,
  RATE_LIMIT_HEADERS,
  RETRY_AFTER_HEADER,
  CHANGE_REACH_HEADERS,
  SECURITY_SCHEMES,
} from "./common";
import { storedRuleSchema } from "../../policy/rules/ruleAnswers";
import { ROUTE_GROUPS } from "./routeGroups";

type OpenApiDocument = ReturnType<typeof createDocument>;

export const API_VERSION = "1";

function mergedPaths(groups: readonly ZodOpenApiPathsObject[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const group of groups) {
    for (const [path, item] of Object.entries(group)) {
      if (path in paths) throw new Error(`openApiDocument: ${path} is described by two route groups`);
      paths[path] = item;
    }
  }
  return paths;
}

export function buildOpenApiDocument(groups: readonly ZodOpenApiPathsObject[] = ROUTE_GROUPS): OpenApiDocument {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Sluice API",
      version: API_VERSION,
      description:
        "Rate limiting for API teams. `/api/v1` is the client-facing API (API-key credentials; every call is limited and carries the RateLimit headers when a rule applied); `/api/admin` is the operator API (admin token, scoped API token or operator session). Every error is `application/problem+json` (RFC 9457).",
    },
    // Relative: the document describes the instance that serves it.
    servers: [{ url: "/", description: "This Sluice instance" }],
    tags: [
      { name: "Client API", description: "Calls made with a tenant's API key; each is one rate-limit decision." },
      { name: "Tenants" },
      { name: "API keys" },
      { name: "Gateway", description: "Sluice in front of an API: a tenant's upstream receives admitted requests." },
      {
        name: "Alerts",
        description:
          "In-product alerts: webhooks for refusal spikes and clients hitting their limits, signed and retried (docs/webhooks.md).",
      },
      {
        name: "Rules",
        description: "Rules as in CONTRACT.md: a rule change is in force on every instance within 1 s.",
      },
      { name: "Quota" },
      { name: "Monitoring" },
      { name: "Simulator" },
      { name: "Audit" },
      { name: "Operators" },
      {
        name: "API tokens",
        description:
          "Scoped admin tokens (`sluice_tok_…`): a role, optionally one tenant, an expiry; used as `Authorization: Bearer`. A token limited to a tenant gets 403 on other tenants and on instance-wide calls.",
      },
      { name: "Session" },
      { name: "Service" },
    ],
    paths: mergedPaths(groups),
    components: {
      schemas: { Problem: problemSchema, Rule: storedRuleSchema },
      responses: errorResponseComponents(),
      headers: { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER, ...CHANGE_REACH_HEADERS },
      securitySchemes: SECURITY_SCHEMES,
    },
  });
}

let cached: OpenApiDocument | undefined;

export function openApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument();
  return cached;
}
