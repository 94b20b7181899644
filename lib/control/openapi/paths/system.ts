/** Unauthenticated service endpoints and the operator session: health, metrics, this document, login. */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { loginSchema, sessionAnswerSchema } from "../../auth/operatorSchemas";
import { errors, jsonAnswer, jsonBody, noContent } from "../common";

const status = z.enum(["ok", "down"]);
const healthSchema = z.object({
  redis: status,
  db: status,
  redisMaxmemoryPolicy: z.string().meta({
    description:
      'Redis maxmemory-policy, "unknown" when it cannot be read; only noeviction is safe for counters (lib/redis/evictionPolicy.ts)',
  }),
  warnings: z.array(z.string()).optional().meta({
    description: "Present when something needs fixing though the instance serves, e.g. an evicting maxmemory-policy",
  }),
});

export const systemPaths: ZodOpenApiPathsObject = {
  "/api/health": {
    get: {
      operationId: "health",
      tags: ["Service"],
      summary: "Health of Redis and Postgres",
      security: [],
      responses: {
        "200": jsonAnswer("Both up.", healthSchema),
        "503": jsonAnswer("At least one is down; the body names which.", healthSchema),
      },
    },
  },
  "/api/metrics": {
    get: {
      operationId: "metrics",
      tags: ["Service"],
      summary: "Prometheus metrics",
      description:
        "Open unless SLUICE_METRICS_TOKEN is set; then `Authorization: Bearer <that token>` is required (401 without it).",
      security: [{}, { metricsToken: [] }],
      responses: {
        "200": {
          description: "Prometheus text exposition format.",
          content: { "text/plain": { schema: { type: "string" } } },
        },
        ...errors("unauthorized"),
      },
    },
  },
  "/api/openapi.json": {
    get: {
      operationId: "openapi",
      tags: ["Service"],
      summary: "This document",
      security: [],
      responses: {
        "200": {
          description: "The OpenAPI 3.1 document of the API.",
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    },
  },
  "/api/auth/login": {
    post: {
      operationId: "login",
      tags: ["Session"],
      summary: "Operator login (dashboard)",
      description:
        "Sets the `sluice_session` cookie. Same-origin only; failed attempts are limited per address and email.",
      security: [],
      requestBody: jsonBody(loginSchema),
      responses: {
        "200": jsonAnswer("Logged in.", sessionAnswerSchema),
        ...errors("unauthorized", "forbidden", "invalid", "rate_limited", "payload_too_large"),
      },
    },
  },
  "/api/auth/logout": {
    post: {
      operationId: "logout",
      tags: ["Session"],
      summary: "End the operator session",
      security: [{ operatorSession: [] }],
      responses: { "204": noContent("Logged out; the cookie is cleared."), ...errors("forbidden") },
    },
  },
  "/api/auth/me": {
    get: {
      operationId: "me",
      tags: ["Session"],
      summary: "The signed-in operator",
      security: [{ operatorSession: [] }],
      responses: {
        "200": jsonAnswer("The operator of this session.", sessionAnswerSchema),
        ...errors("unauthorized"),
      },
    },
  },
};
