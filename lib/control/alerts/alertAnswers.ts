/**
 * The answers about a tenant's alerts (GET/PUT /api/admin/tenants/{tenantId}/alerts), as zod
 * schemas: the one description of their shape. alertStore.ts and deliveryLog.ts return their
 * inferred types, the OpenAPI document renders them, the dashboard imports the types.
 */
import { z } from "zod";
import { isoTimeSchema } from "../../common/isoTime";
import {
  ALERT_CONDITION_TYPES,
  billingSettingsSchema,
  clientLimitConditionSchema,
  refusalRateConditionSchema,
} from "./alertSchema";

/** The settings as stored and shown: never the secret itself, only its last characters. */
export const storedAlertSettingsSchema = z.object({
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
export type StoredAlertSettings = z.infer<typeof storedAlertSettingsSchema>;

/** One finished delivery of an alert (./deliveryLog.ts), newest first in the list. */
export const alertDeliverySchema = z.object({
  id: z.string().meta({ description: "The alert's id (also its `Sluice-Alert-Id` header)." }),
  type: z.enum(ALERT_CONDITION_TYPES),
  firedAt: isoTimeSchema.meta({ description: "When the alert fired." }),
  finishedAt: isoTimeSchema.meta({ description: "When the last attempt ended." }),
  outcome: z.enum(["delivered", "failed"]),
  attempts: z.number().int(),
  httpStatus: z
    .number()
    .int()
    .nullable()
    .meta({ description: "The receiver's last status; null when no answer came." }),
  error: z.string().nullable().meta({ description: "Why the last attempt failed; null when delivered." }),
});
export type AlertDelivery = z.infer<typeof alertDeliverySchema>;

/** GET .../alerts. */
export const alertsViewSchema = z.object({
  settings: storedAlertSettingsSchema.nullable().meta({ description: "null when the tenant has no alerts." }),
  deliveries: z.array(alertDeliverySchema).nullable().meta({
    description: "The last 20 deliveries, newest first (kept 7 days); null when Redis cannot be read right now.",
  }),
});
export type AlertsView = z.infer<typeof alertsViewSchema>;

/** PUT .../alerts. */
export const savedAlertsSchema = z.object({
  settings: storedAlertSettingsSchema,
  secret: z.string().optional().meta({
    description:
      "The new signing secret, present only when this call generated it (first PUT, or `rotateSecret`): store it now, it is not shown again.",
  }),
});
export type SavedAlerts = z.infer<typeof savedAlertsSchema>;
