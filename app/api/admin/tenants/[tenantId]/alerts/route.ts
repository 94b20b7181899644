import { notAllowed } from "@/lib/http/methodNotAllowed";
import { readJsonBody } from "@/lib/http/readJsonBody";
import { parseInput } from "@/lib/http/validate";
import { adminRoute } from "@/lib/control/admin/adminRoute";
import { tenantIdParam } from "@/lib/control/admin/params";
import { alertSettingsSchema } from "@/lib/control/alerts/alertSchema";
import {
  deleteAlertSettings,
  getAlertSettings,
  putAlertSettings,
  settingsForRole,
} from "@/lib/control/alerts/alertStore";
import { services } from "@/lib/runtime/services";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Params = { tenantId: string };

/**
 * 200 with the settings (null when none, never the secret; for a viewer the webhook URL only as its
 * hint) and the last deliveries (null when Redis cannot be read).
 */
export const GET = adminRoute<Params>("read", async (_request, actor, params) => {
  const tenantId = tenantIdParam(params.tenantId);
  const stored = await getAlertSettings(tenantId);
  const settings = stored && settingsForRole(stored, actor.role);
  const deliveries = await services()
    .alerts.lastDeliveries(tenantId)
    .catch(() => null);
  return Response.json({ settings, deliveries });
});

/** Sets the settings: 200 with them as stored, and `secret` when this call generated one (shown once). */
export const PUT = adminRoute<Params>("write", async (request, actor, params) => {
  const tenantId = tenantIdParam(params.tenantId);
  const input = parseInput(alertSettingsSchema, await readJsonBody(request));
  const saved = await putAlertSettings(actor, tenantId, input);
  return Response.json({ settings: saved.settings, ...(saved.secret ? { secret: saved.secret } : {}) });
});

/** 204 once removed (no condition is evaluated any more); 404 when the tenant has none. */
export const DELETE = adminRoute<Params>("write", async (_request, actor, params) => {
  await deleteAlertSettings(actor, tenantIdParam(params.tenantId));
  return new Response(null, { status: 204 });
});

export const { POST, PATCH } = notAllowed(["GET", "PUT", "DELETE"]);
