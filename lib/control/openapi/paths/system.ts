/** Unauthenticated service endpoints and the operator session: health, metrics, this document, login. */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { loginSchema, logoutAnswerSchema, sessionAnswerSchema } from "../../auth/operatorSchemas";
import { healthSchema } from "../../health/checkHealth";
import { errors, jsonAnswer, jsonBody, noContent } from "../common";

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
  "/api/auth/sso/start": {
    get: {
      operationId: "ssoStart",
      tags: ["Session"],
      summary: "Start a single sign-on login (OpenID Connect)",
      description:
        "303 to the identity provider's authorization endpoint (authorization code with PKCE, state and nonce), with a short-lived `sluice_sso` cookie holding the pending login. When SSO is not configured or the IdP cannot be reached: 303 to `/login?sso_error=<code>`.",
      security: [],
      parameters: [
        {
          name: "next",
          in: "query",
          required: false,
          schema: { type: "string" },
          description: "A path on this site to open after logging in.",
        },
      ],
      responses: { "303": { description: "To the identity provider, or back to the login page with `sso_error`." } },
    },
  },
  "/api/auth/sso/callback": {
    get: {
      operationId: "ssoCallback",
      tags: ["Session"],
      summary: "The identity provider's redirect back",
      description:
        "Checks `state` against the `sluice_sso` cookie, exchanges the code (PKCE), verifies the ID token and its nonce, maps the role claim, creates the operator on first login (audited) and sets the `sluice_session` cookie: 303 to the page the login started from. Any failure: 303 to `/login?sso_error=<code>`, with no operator created and no session.",
      security: [],
      parameters: [
        { name: "code", in: "query", required: false, schema: { type: "string" } },
        { name: "state", in: "query", required: false, schema: { type: "string" } },
      ],
      responses: { "303": { description: "To the page the login started from, or to `/login?sso_error=<code>`." } },
    },
  },
  "/api/auth/logout": {
    post: {
      operationId: "logout",
      tags: ["Session"],
      summary: "End the operator session",
      security: [{ operatorSession: [] }],
      responses: {
        "200": jsonAnswer(
          "Logged out of a single sign-on session; the cookie is cleared. The browser goes on to the identity provider's logout.",
          logoutAnswerSchema,
        ),
        "204": noContent("Logged out; the cookie is cleared."),
        ...errors("forbidden"),
      },
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
