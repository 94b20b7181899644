/** Scoped admin API tokens: /api/admin/tokens... (managed only by an admin without a tenant limit). */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { z } from "zod";
import { ADMIN_TOKEN_PATTERN } from "../../../common/apiKeyFormat";
import { OPERATOR_ID_PATTERN } from "../../admin/params";
import { ROLES } from "../../auth/operatorSchemas";
import { createTokenSchema } from "../../tokens/tokenSchemas";
import { adminOperation, errors, jsonAnswer, jsonBody, noContent } from "../common";

const dateTime = () => z.string().meta({ format: "date-time" });

const tokenSchema = z.object({
  id: z.string(),
  name: z.string().meta({ description: "Changes made with the token are audited as `token:<name>`." }),
  role: z.enum(ROLES),
  tenantId: z.string().nullable().meta({ description: "The one tenant the token may touch; null: every tenant." }),
  expiresAt: dateTime().nullable(),
  lastUsedAt: dateTime()
    .nullable()
    .meta({ description: "Written at most once a minute per instance: up to a minute stale." }),
  createdBy: z.string().meta({ description: "The audit actor that created it." }),
  createdAt: dateTime(),
});

const createdTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  tenantId: z.string().nullable(),
  expiresAt: dateTime().nullable(),
  token: z
    .string()
    .regex(ADMIN_TOKEN_PATTERN)
    .meta({ description: "`sluice_tok_<secret>`: shown only in this answer; only its hash is stored." }),
});

const tokenIdPath = z.object({ tokenId: z.string().regex(OPERATOR_ID_PATTERN) });

export const tokenPaths: ZodOpenApiPathsObject = {
  "/api/admin/tokens": {
    get: adminOperation("read", {
      operationId: "listTokens",
      tags: ["API tokens"],
      summary: "List API tokens (never their secrets)",
      responses: { "200": jsonAnswer("Every API token.", z.array(tokenSchema)) },
    }),
    post: adminOperation("write", {
      operationId: "createToken",
      tags: ["API tokens"],
      summary: "Create an API token; its secret is in this answer only",
      requestBody: jsonBody(createTokenSchema()),
      responses: {
        "201": jsonAnswer("The new token with its secret.", createdTokenSchema),
        ...errors("invalid", "conflict"),
      },
    }),
  },
  "/api/admin/tokens/{tokenId}": {
    delete: adminOperation("write", {
      operationId: "deleteToken",
      tags: ["API tokens"],
      summary: "Revoke an API token: refused (401) on every instance from its next call on",
      requestParams: { path: tokenIdPath },
      responses: { "204": noContent("Revoked."), ...errors("not_found") },
    }),
  },
};
