/** The audit log and its reverts, and operator accounts: /api/admin/audit..., /api/admin/operators... */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { OPERATOR_ID_PATTERN } from "../../admin/params";
import { AUDIT_ID_PATTERN, auditQuerySchema } from "../../admin/querySchemas";
import { auditEventSchema } from "../../../policy/audit/auditAnswers";
import {
  createOperatorSchema,
  operatorViewSchema as operatorSchema,
  updateOperatorSchema,
} from "../../auth/operatorSchemas";
import { adminOperation, errors, jsonAnswer, jsonBody, noContent } from "../common";

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
