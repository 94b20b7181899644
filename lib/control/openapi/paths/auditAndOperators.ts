/** The audit log and its reverts, and operator accounts: /api/admin/audit..., /api/admin/operators... */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { OPERATOR_ID_PATTERN } from "../../admin/params";
import { AUDIT_ID_PATTERN, auditQuerySchema } from "../../admin/querySchemas";
import { createOperatorSchema, updateOperatorSchema } from "../../auth/operatorSchemas";
import { ROLES } from "../../auth/operatorSchemas";
import { adminOperation, errors, jsonAnswer, jsonBody, noContent } from "../common";

const auditEventSchema = z.object({
  id: z.string().meta({ description: "Decimal id: the `before` cursor and the revert route's id." }),
  at: z.string().meta({ format: "date-time" }),
  actor: z
    .string()
    .meta({ description: "`token` (the admin token), `token:<name>` (a scoped API token) or `operator:<email>`." }),
  action: z.string(),
  target: z.string(),
  tenantId: z.string().nullable(),
  before: z.unknown().meta({ description: "The state before the change (JSON), or null." }),
  after: z.unknown().meta({ description: "The state after the change (JSON), or null." }),
  revertOf: z.string().nullable(),
  revertible: z.boolean(),
});

const operatorSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  tenantIds: z.array(z.string()).meta({
    description:
      "The tenants this operator is limited to (403 on other tenants and instance-wide calls, as a tenant-limited token); empty: every tenant",
  }),
  createdAt: z.string().meta({ format: "date-time" }),
});
const operatorIdPath = z.object({ operatorId: z.string().regex(OPERATOR_ID_PATTERN) });
const auditIdPath = z.object({ auditId: z.string().regex(AUDIT_ID_PATTERN) });

export const auditAndOperatorPaths: ZodOpenApiPathsObject = {
  "/api/admin/audit": {
    get: adminOperation("read", {
      operationId: "listAudit",
      tags: ["Audit"],
      summary: "Changes, newest first: who, when, what, before and after",
      requestParams: { query: auditQuerySchema },
      responses: { "200": jsonAnswer("A page of audit events.", z.array(auditEventSchema)), ...errors("invalid") },
    }),
  },
  "/api/admin/audit/{auditId}/revert": {
    post: adminOperation("write", {
      operationId: "revertChange",
      tags: ["Audit"],
      summary: "Revert an audited change",
      requestParams: { path: auditIdPath },
      responses: {
        "200": jsonAnswer("The revert's own audit event.", auditEventSchema),
        ...errors("not_found", "conflict"),
      },
    }),
  },
  "/api/admin/operators": {
    get: adminOperation("read", {
      operationId: "listOperators",
      tags: ["Operators"],
      summary: "List operators",
      responses: { "200": jsonAnswer("Every operator.", z.array(operatorSchema)) },
    }),
    post: adminOperation("write", {
      operationId: "createOperator",
      tags: ["Operators"],
      summary: "Create an operator",
      requestBody: jsonBody(createOperatorSchema),
      responses: { "201": jsonAnswer("The new operator.", operatorSchema), ...errors("invalid", "conflict") },
    }),
  },
  "/api/admin/operators/{operatorId}": {
    get: adminOperation("read", {
      operationId: "getOperator",
      tags: ["Operators"],
      summary: "Get an operator",
      requestParams: { path: operatorIdPath },
      responses: { "200": jsonAnswer("The operator.", operatorSchema), ...errors("not_found") },
    }),
    patch: adminOperation("write", {
      operationId: "updateOperator",
      tags: ["Operators"],
      summary: "Change an operator's role and/or password",
      requestParams: { path: operatorIdPath },
      requestBody: jsonBody(updateOperatorSchema),
      responses: { "200": jsonAnswer("The operator.", operatorSchema), ...errors("not_found", "invalid", "conflict") },
    }),
    delete: adminOperation("write", {
      operationId: "deleteOperator",
      tags: ["Operators"],
      summary: "Delete an operator",
      requestParams: { path: operatorIdPath },
      responses: { "204": noContent("Deleted."), ...errors("not_found", "conflict") },
    }),
  },
};
