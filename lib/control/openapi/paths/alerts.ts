/** In-product alerts: a tenant's webhook settings and last deliveries, /api/admin/tenants/{tenantId}/alerts (docs/webhooks.md). */
import type { ZodOpenApiPathsObject } from "zod-openapi";
import { alertSettingsSchema } from "../../alerts/alertSchema";
import { alertsViewSchema, savedAlertsSchema } from "../../alerts/alertAnswers";
import { adminOperation, errors, jsonAnswer, jsonBody, noContent, tenantIdPath } from "../common";

export const alertPaths: ZodOpenApiPathsObject = {
  "/api/admin/tenants/{tenantId}/alerts": {
    get: adminOperation("read", {
      operationId: "getAlerts",
      tags: ["Alerts"],
      summary: "The tenant's alert settings and last deliveries",
      requestParams: { path: tenantIdPath },
      responses: {
        "200": jsonAnswer("Settings (without the secret) and deliveries.", alertsViewSchema),
        ...errors("not_found"),
      },
    }),
    put: adminOperation("write", {
      operationId: "putAlerts",
      tags: ["Alerts"],
      summary: "Set the tenant's alert webhook and conditions",
      description:
        'Conditions are evaluated in the background on every instance from the monitoring data; each firing is delivered at most once per condition window, POSTed as JSON signed with `Sluice-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, retried with backoff. Audited.',
      requestParams: { path: tenantIdPath },
      requestBody: jsonBody(alertSettingsSchema),
      responses: {
        "200": jsonAnswer("The settings as stored, with `secret` when generated.", savedAlertsSchema),
        ...errors("not_found", "invalid"),
      },
    }),
    delete: adminOperation("write", {
      operationId: "deleteAlerts",
      tags: ["Alerts"],
      summary: "Remove the tenant's alerts",
      requestParams: { path: tenantIdPath },
      responses: { "204": noContent("Removed."), ...errors("not_found") },
    }),
  },
};
