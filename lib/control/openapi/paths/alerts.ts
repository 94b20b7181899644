/** In-product alerts: a tenant's webhook settings and last deliveries, /api/admin/tenants/{tenantId}/alerts (docs/webhooks.md). */
import { z } from "zod";
import type { ZodOpenApiPathsObject } from "zod-openapi";
import {
  alertSettingsSchema,
  billingSettingsSchema,
  clientLimitConditionSchema,
  refusalRateConditionSchema,
} from "../../alerts/alertSchema";
import { adminOperation, errors, jsonAnswer, jsonBody, noContent, tenantIdPath } from "../common";

const storedSettingsSchema = z.object({
  webhookUrl: z.string().optional().meta({
    description:
      "The webhook URL, for admins only: it is a capability URL (whoever has it can post to the receiver), so viewers get `webhookUrlHint` alone.",
  }),
  webhookUrlHint: z.string().meta({
    description:
      "The URL's origin and last 4 characters (`https://hooks.slack.com/…abcd`), for everyone; the audit log keeps only this form.",
  }),
  refusalRate: refusalRateConditionSchema.nullable().meta({
    description:
      "Refusals above `thresholdPct` % over the trailing `minutes` minutes (with at least `minRequests` requests); null when off.",
  }),
  clientLimit: clientLimitConditionSchema.nullable().meta({
    description: "One client refused by one rule at least `hits` times within `windowMinutes` minutes; null when off.",
  }),
  billing: billingSettingsSchema.nullable().meta({
    description:
      "The billing hook: at each UTC `period`'s end (day, week from Monday, month), one `usage.period_closed` webhook with each key's usage of the closed period (docs/webhooks.md); null when off.",
  }),
  secretHint: z.string().meta({
    description:
      "`whsec_…` and the signing secret's last 4 characters; the secret itself is shown only by the PUT that generated it.",
  }),
  updatedAt: z.string().meta({ description: "ISO 8601." }),
});

const deliverySchema = z.object({
  id: z.string().meta({ description: "The alert's id (also its `Sluice-Alert-Id` header)." }),
  type: z.enum(["refusal_rate", "client_limit"]),
  firedAt: z.string(),
  finishedAt: z.string(),
  outcome: z.enum(["delivered", "failed"]),
  attempts: z.number().int(),
  httpStatus: z
    .number()
    .int()
    .nullable()
    .meta({ description: "The receiver's last status; null when no answer came." }),
  error: z.string().nullable(),
});

const alertsViewSchema = z.object({
  settings: storedSettingsSchema.nullable().meta({ description: "null when the tenant has no alerts." }),
  deliveries: z.array(deliverySchema).nullable().meta({
    description: "The last 20 deliveries, newest first (kept 7 days); null when Redis cannot be read right now.",
  }),
});

const savedSchema = z.object({
  settings: storedSettingsSchema,
  secret: z.string().optional().meta({
    description:
      "The new signing secret, present only when this call generated it (first PUT, or `rotateSecret`): store it now, it is not shown again.",
  }),
});

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
        "200": jsonAnswer("The settings as stored, with `secret` when generated.", savedSchema),
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
