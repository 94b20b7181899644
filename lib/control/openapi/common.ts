/**
 * Parts of the OpenAPI document that every route group shares: the problem+json answers of
 * lib/http/errors.ts, the rate-limit headers of lib/limiter/headers.ts, the two credentials, and
 * path parameters. Route groups (lib/control/openapi/paths/*.ts) compose operations from these.
 *
 * No `.meta({ id })` here: zod's global registry refuses a second schema with the same id, and
 * Next bundles each route separately. Reusable schemas are registered as components by name in
 * openApiDocument.ts instead.
 */
import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from "zod-openapi";
import { ID_LENGTH, ID_PATTERN, KEY_PREFIX } from "../../common/apiKeyFormat";
import { ERROR_STATUS, ERROR_TITLE, type ErrorCode } from "../../http/errors";
import { PROBLEM_TYPE } from "../../http/problem";

export const JSON_TYPE = "application/json";

/** RFC 9457 problem details as Sluice sends them (lib/http/problem.ts). */
export const problemSchema = z
  .object({
    type: z
      .string()
      .meta({ description: "A URI naming the kind of problem; `about:blank` when the status says it all." }),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().meta({ description: "What went wrong, for a person; never internals." }),
    errors: z
      .record(z.string(), z.array(z.string()))
      .optional()
      .meta({ description: '422 only: messages per field path (`rules.0.limit`; `""` for the body as a whole).' }),
    "violated-policies": z.array(z.string()).optional().meta({ description: "429 only: the rules that refused." }),
    retryAfterMs: z
      .number()
      .int()
      .optional()
      .meta({ description: "429 and 503: milliseconds until a retry can succeed." }),
    attribute: z
      .object({ in: z.enum(["header", "query"]), name: z.string() })
      .optional()
      .meta({
        description:
          "400 under /api/v1 only: the header or query parameter a `header`/`query` rule with `onMissing: refuse` counts by, which the request lacked (`rule` names that rule).",
      }),
    rule: z.string().optional().meta({ description: "With `attribute`: the rule that needs it." }),
  })
  .meta({ description: "An RFC 9457 problem details object (`application/problem+json`)." });

/** Name of each reusable error response in components.responses, by error code. */
const RESPONSE_NAME: Partial<Record<ErrorCode, string>> = {
  bad_request: "BadRequest",
  unauthorized: "Unauthorized",
  forbidden: "Forbidden",
  not_found: "NotFound",
  conflict: "Conflict",
  precondition_failed: "PreconditionFailed",
  payload_too_large: "PayloadTooLarge",
  invalid: "Invalid",
  rate_limited: "TooManyRequests",
  internal: "InternalError",
  limiter_unavailable: "Unavailable",
};

const ERROR_DESCRIPTION: Partial<Record<ErrorCode, string>> = {
  bad_request:
    "The request is malformed (bad JSON, an encoded `/` or `\\` in the path), or lacks the header or query parameter of a `header`/`query` rule with `onMissing: refuse` (`attribute` names it; nothing is charged).",
  unauthorized: "Missing, malformed, unknown or revoked credentials.",
  forbidden:
    "Not allowed: a viewer operator changing state, a cross-origin session request, or a request matching the tenant's deny list.",
  not_found: "Nothing with this id, or no such rule.",
  conflict: "The change conflicts with the current state (a duplicate name, the last admin).",
  precondition_failed:
    "`If-Match` names an ETag that is no longer current: the resource changed since it was read. Read it again (the answer's `ETag` header is the current one).",
  payload_too_large: "The body is over 64 KiB.",
  invalid: "The input is invalid; `errors` names each field with its messages.",
  rate_limited: "Refused by a rate limit. `Retry-After` says when to try again; no quota was consumed.",
  internal: "An internal error; nothing about it is disclosed.",
  limiter_unavailable:
    "A dependency is down: Redis under a `closed` rule, or Postgres; for a change, it could not be put in force. `Retry-After` says when to try again.",
};

export type DocumentedError = keyof typeof RESPONSE_NAME;

const problemContent = { [PROBLEM_TYPE]: { schema: problemSchema } };

/** The rate-limit headers (CONTRACT.md "Headers on every response that at least one rule applied to"). */
export const RATE_LIMIT_HEADERS = {
  "RateLimit-Policy": {
    description:
      'Every applied rule, draft-ietf-httpapi-ratelimit-headers-10 syntax: `"per-key";q=100;w=60`. Absent when no rule applied.',
    schema: { type: "string" },
  },
  RateLimit: {
    description:
      'Every applied enforce rule, most restrictive first, with remaining units and seconds until more quota: `"per-key";r=42;t=17`.',
    schema: { type: "string" },
  },
  "X-RateLimit-Limit": {
    description:
      "The most restrictive rule's capacity, the most X-RateLimit-Remaining can be: the bucket's `burst` for token_bucket and gcra, else its `limit`.",
    schema: { type: "integer" },
  },
  "X-RateLimit-Remaining": { description: "The most restrictive rule's remaining units.", schema: { type: "integer" } },
  "X-RateLimit-Reset": {
    description: "UTC epoch second at which the most restrictive rule next gives quota back.",
    schema: { type: "integer" },
  },
} as const;

export const RETRY_AFTER_HEADER = {
  "Retry-After": {
    description: "Whole seconds (at least 1) until a retry can succeed: `ceil(retryAfterMs / 1000)`.",
    schema: { type: "integer", minimum: 1 },
  },
} as const;

/** On an admin change's success answer when other instances get it late (lib/policy/changes/changeReach.ts). */
export const CHANGE_REACH_HEADERS = {
  "Sluice-Propagation": {
    description:
      "`delayed; within=15`: the change is saved and in force on this instance, but its notice to the other instances could not be sent (Redis unavailable), so they apply it at their next full reload, within that many seconds, not within 1 s. Absent when the change reached every instance.",
    schema: { type: "string" },
  },
  Warning: {
    description: 'With `Sluice-Propagation`: the same in words, `199 sluice "..."`.',
    schema: { type: "string" },
  },
} as const;

const headerRefs = (names: readonly string[]): Record<string, { $ref: string }> =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

export const rateLimitHeaderRefs = () => headerRefs(Object.keys(RATE_LIMIT_HEADERS));
const retryHeaderRefs = () => headerRefs([...Object.keys(RATE_LIMIT_HEADERS), ...Object.keys(RETRY_AFTER_HEADER)]);

/** components.responses: one per error code the API answers with. */
export function errorResponseComponents(): Record<string, ZodOpenApiResponseObject> {
  const out: Record<string, ZodOpenApiResponseObject> = {};
  for (const [code, name] of Object.entries(RESPONSE_NAME) as [ErrorCode, string][]) {
    const retry = code === "rate_limited" || code === "limiter_unavailable";
    out[name] = {
      description: `${ERROR_STATUS[code]} ${ERROR_TITLE[code]}: ${ERROR_DESCRIPTION[code]}`,
      ...(retry ? { headers: retryHeaderRefs() } : {}),
      content: problemContent,
    };
  }
  // The gateway's own answers (CONTRACT.md "Gateway"), not codes of lib/http/errors.ts.
  out.BadGateway = {
    description: "502 Bad Gateway: the tenant's upstream could not be reached, or answered what cannot be forwarded.",
    content: problemContent,
  };
  out.GatewayTimeout = {
    description: "504 Gateway Timeout: the upstream did not answer within its `timeoutMs`.",
    content: problemContent,
  };
  return out;
}

type StatusKey = `${1 | 2 | 3 | 4 | 5}${string}`;

/** References to the error responses `codes`, keyed by status. */
export function errors(...codes: DocumentedError[]): Record<StatusKey, { $ref: string }> {
  const out: Record<StatusKey, { $ref: string }> = {};
  for (const code of codes)
    out[`${ERROR_STATUS[code]}` as StatusKey] = { $ref: `#/components/responses/${RESPONSE_NAME[code]}` };
  return out;
}

/** A 200/201 JSON answer. */
export function jsonAnswer(
  description: string,
  schema: z.ZodType,
  headers?: Record<string, { $ref: string }>,
): ZodOpenApiResponseObject {
  return { description, ...(headers ? { headers } : {}), content: { [JSON_TYPE]: { schema } } };
}

export const noContent = (description: string) => ({ description });

export const jsonBody = (schema: z.ZodType, description?: string) => ({
  required: true,
  ...(description ? { description } : {}),
  content: { [JSON_TYPE]: { schema } },
});

/** Security requirements: admin calls take the bearer admin token or an operator session cookie. */
export const ADMIN_SECURITY: Record<string, string[]>[] = [{ adminToken: [] }, { operatorSession: [] }];
export const API_KEY_SECURITY: Record<string, string[]>[] = [{ apiKeyBearer: [] }, { apiKeyHeader: [] }];

export const SECURITY_SCHEMES = {
  adminToken: {
    type: "http",
    scheme: "bearer",
    description:
      "`Authorization: Bearer $SLUICE_ADMIN_TOKEN`, or a scoped API token `sluice_tok_…` (POST /api/admin/tokens).",
  },
  operatorSession: {
    type: "apiKey",
    in: "cookie",
    name: "sluice_session",
    description:
      "An operator's dashboard session (POST /api/auth/login); named `__Host-sluice_session` over HTTPS. Changes need a same-origin request.",
  },
  apiKeyBearer: {
    type: "http",
    scheme: "bearer",
    description: `A tenant's API key (\`${KEY_PREFIX}<keyId>_<secret>\`): \`Authorization: Bearer <key>\`.`,
  },
  apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key", description: "A tenant's API key in `x-api-key`." },
  metricsToken: {
    type: "http",
    scheme: "bearer",
    description: "`Authorization: Bearer $SLUICE_METRICS_TOKEN`, when that is set.",
  },
} as const;

export const tenantIdPath = z.object({
  tenantId: z
    .string()
    .regex(ID_PATTERN)
    .meta({ description: `A tenant id (${ID_LENGTH} letters or digits).` }),
});
export const keyIdPath = z.object({
  keyId: z
    .string()
    .regex(ID_PATTERN)
    .meta({ description: `An API key id (${ID_LENGTH} letters or digits; not the key itself).` }),
});

/** Admin operations share security and the errors any admin call may answer. */
export function adminOperation(access: "read" | "write", op: ZodOpenApiOperationObject): ZodOpenApiOperationObject {
  const common =
    access === "write"
      ? errors("unauthorized", "forbidden", "payload_too_large", "limiter_unavailable")
      : errors("unauthorized", "forbidden");
  const responses = access === "write" ? withChangeReachHeaders(op.responses) : op.responses;
  return { security: ADMIN_SECURITY, ...op, responses: { ...responses, ...common, ...errors("internal") } };
}

/** Every 2xx answer of a change with the change-reach headers documented. */
function withChangeReachHeaders(
  responses: ZodOpenApiOperationObject["responses"],
): ZodOpenApiOperationObject["responses"] {
  const out = { ...responses };
  for (const [status, response] of Object.entries(out)) {
    if (!status.startsWith("2") || !response || "$ref" in response) continue;
    out[status as StatusKey] = {
      ...response,
      headers: { ...(response.headers as object | undefined), ...headerRefs(Object.keys(CHANGE_REACH_HEADERS)) },
    };
  }
  return out;
}
