/** Scoped admin API tokens: /api/admin/tokens... (managed only by an admin without a tenant limit). */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { z } from "zod";
import { OPERATOR_ID_PATTERN } from "../../admin/params";
import { createdTokenSchema, createTokenSchema, tokenViewSchema as tokenSchema } from "../../tokens/tokenSchemas";
import { adminOperation, errors, jsonAnswer, jsonBody, noContent } from "../common";

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
