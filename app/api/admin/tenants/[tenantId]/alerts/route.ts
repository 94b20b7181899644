import { notAllowed } from "@/lib/http/methodNotAllowed";
import { adminEndpoint } from "@/lib/control/admin/adminEndpoint";
import { tenantIdParam } from "@/lib/control/admin/params";
import { alertSettingsSchema } from "@/lib/control/alerts/alertSchema";
import { alertsViewSchema, savedAlertsSchema } from "@/lib/control/alerts/alertAnswers";
import {
  deleteAlertSettings,
  getAlertSettings,
  putAlertSettings,
  settingsForRole,
} from "@/lib/control/alerts/alertStore";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const params = { tenantId: tenantIdParam };

/**
 * 200 with the settings (null when none, never the secret; for a viewer the webhook URL only as its
 * hint) and the last deliveries (null when Redis cannot be read).
 */
export const GET = adminEndpoint("read", {
  params,
  answer: alertsViewSchema,
  handle: async ({ actor, params }) => {
    const stored = await getAlertSettings(params.tenantId);
    const settings = stored && settingsForRole(stored, actor.role);
    const deliveries = await services()
      .alerts.lastDeliveries(params.tenantId)
      .catch(() => null);
    return { settings, deliveries };
  },
});

/** Sets the settings: 200 with them as stored, and `secret` when this call generated one (shown once). */
export const PUT = adminEndpoint("write", {
  params,
  body: alertSettingsSchema,
  answer: savedAlertsSchema,
  handle: async ({ actor, params, body }) => {
    const saved = await putAlertSettings(actor, params.tenantId, body);
    return { settings: saved.settings, ...(saved.secret ? { secret: saved.secret } : {}) };
  },
});

/** 204 once removed (no condition is evaluated any more); 404 when the tenant has none. */
export const DELETE = adminEndpoint("write", {
  params,
  handle: async ({ actor, params }) => {
    await deleteAlertSettings(actor, params.tenantId);
    return undefined;
  },
});

export const { POST, PATCH } = notAllowed(["GET", "PUT", "DELETE"]);
