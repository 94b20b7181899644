/**
 * A tenant's alert settings in Postgres: read, set (PUT) and remove (DELETE), each change in ONE
 * transaction with its audit event (`alerts.replace`, `alerts.delete`; before and after are the
 * settings WITHOUT the secret, plus `secretRotated` on a PUT that generated one).
 *
 * - The signing secret is generated on the first PUT and on `rotateSecret: true`, and returned by
 *   that PUT only (`secret`); every other answer shows `secretHint`.
 * - The webhook URL is a capability URL (whoever has it can post to the receiver): every view
 *   carries `webhookUrlHint` (origin and last 4 characters, lib/http/capabilityUrl.ts); the full
 *   `webhookUrl` only admins read (`settingsForRole`), and the audit log keeps only the hint.
 * - `loadAllAlertSettings` is the evaluator's read (lib/control/alerts/alertEvaluator.ts): every tenant's
 *   settings with the secret and the tenant's name; rows whose stored conditions no longer parse
 *   are skipped rather than failing every tenant's alerts.
 * The `...In` forms join a caller's transaction (a policy document's apply: lib/control/policyDocument).
 * Errors (AppError): `not_found` for an unknown tenant, and for a tenant without alerts on DELETE.
 */
import { getDb } from "../../db/client";
import type { Prisma } from "../../db/generated/client";
import { recordAudit, type Actor } from "../../policy/audit/auditLog";
import { AppError } from "../../http/errors";
import { lockTenant, noTenant } from "../../policy/tenants/tenantLock";
import {
  billingSettingsSchema,
  clientLimitConditionSchema,
  refusalRateConditionSchema,
  type AlertSettings,
} from "./alertSchema";
import type { StoredAlertSettings } from "./alertAnswers";
import type { TenantAlertSettings } from "./alertEvaluator";
import { generateWebhookSecret, secretHint } from "./webhookSignature";
import { capabilityUrlHint } from "../../http/capabilityUrl";

type Row = { webhookUrl: string; secret: string; conditions: Prisma.JsonValue; updatedAt: Date };

export interface SavedAlertSettings {
  tenantId: string;
  settings: StoredAlertSettings;
  /** The new signing secret, when this PUT generated one (shown once). */
  secret?: string;
}

const noAlerts = (tenantId: string) => new AppError("not_found", `Tenant ${tenantId} has no alerts.`);

/** The stored `conditions` column; throws when it does not parse (written by another version). */
function conditions(row: Row) {
  const stored = (row.conditions ?? {}) as { refusalRate?: unknown; clientLimit?: unknown; billing?: unknown };
  const refusalRate = stored.refusalRate == null ? null : refusalRateConditionSchema.parse(stored.refusalRate);
  const clientLimit = stored.clientLimit == null ? null : clientLimitConditionSchema.parse(stored.clientLimit);
  const billing = stored.billing == null ? null : billingSettingsSchema.parse(stored.billing);
  return { refusalRate, clientLimit, billing };
}

function view(row: Row): StoredAlertSettings {
  return {
    webhookUrl: row.webhookUrl,
    webhookUrlHint: capabilityUrlHint(row.webhookUrl),
    ...conditions(row),
    secretHint: secretHint(row.secret),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps: never the secret, and the webhook URL only as its hint (a viewer reads the log). */
const audited = (s: StoredAlertSettings | null) =>
  s
    ? { webhookUrl: s.webhookUrlHint, refusalRate: s.refusalRate, clientLimit: s.clientLimit, billing: s.billing }
    : null;

/** The settings as `role` may read them: a viewer gets the webhook URL's hint, never the URL. */
export function settingsForRole(settings: StoredAlertSettings, role: Actor["role"]): StoredAlertSettings {
  if (role === "admin") return settings;
  const shown = { ...settings };
  delete shown.webhookUrl;
  return shown;
}

/** The tenant's settings, or null when it has none; 404 for an unknown tenant. */
export async function getAlertSettings(tenantId: string): Promise<StoredAlertSettings | null> {
  const db = getDb();
  const [tenant, row] = await Promise.all([
    db.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }),
    db.alertSettings.findUnique({ where: { tenantId } }),
  ]);
  if (!tenant) throw noTenant(tenantId);
  return row ? view(row) : null;
}

type Tx = Prisma.TransactionClient;

/** The settings as stored (with the full webhook URL), or null; no tenant check (a caller's transaction holds it). */
export async function readAlertSettingsIn(tx: Tx, tenantId: string): Promise<StoredAlertSettings | null> {
  const row = await tx.alertSettings.findUnique({ where: { tenantId } });
  return row ? view(row) : null;
}

/** Sets the settings within the caller's transaction (`input` must have passed alertSettingsSchema). */
export async function putAlertSettingsIn(
  tx: Tx,
  actor: Actor,
  tenantId: string,
  input: AlertSettings,
): Promise<SavedAlertSettings> {
  await lockTenant(tx, tenantId);
  const existing = await tx.alertSettings.findUnique({ where: { tenantId } });
  const secret = !existing || input.rotateSecret ? generateWebhookSecret() : undefined;
  // One JSON column with both conditions (null when off): no SQL NULL JSON columns, whose
  // Prisma.DbNull sentinel must be the very instance of the client's module.
  const data = {
    webhookUrl: input.webhookUrl,
    conditions: { refusalRate: input.refusalRate, clientLimit: input.clientLimit, billing: input.billing },
  };
  const row = existing
    ? await tx.alertSettings.update({ where: { tenantId }, data: { ...data, ...(secret ? { secret } : {}) } })
    : await tx.alertSettings.create({ data: { tenantId, secret: secret!, ...data } });
  const settings = view(row);
  await recordAudit(tx, actor, {
    action: "alerts.replace",
    target: `tenant:${tenantId}`,
    tenantId,
    before: existing ? audited(view(existing)) : null,
    after: { ...audited(settings), secretRotated: secret !== undefined },
  });
  return { tenantId, settings, ...(secret ? { secret } : {}) };
}

/** Sets the settings (`input` must have passed alertSettingsSchema). */
export async function putAlertSettings(
  actor: Actor,
  tenantId: string,
  input: AlertSettings,
): Promise<SavedAlertSettings> {
  return getDb().$transaction((tx) => putAlertSettingsIn(tx, actor, tenantId, input));
}

/** Removes the settings within the caller's transaction; 404 when the tenant has none. */
export async function deleteAlertSettingsIn(tx: Tx, actor: Actor, tenantId: string): Promise<void> {
  await lockTenant(tx, tenantId);
  const existing = await tx.alertSettings.findUnique({ where: { tenantId } });
  if (!existing) throw noAlerts(tenantId);
  await tx.alertSettings.delete({ where: { tenantId } });
  await recordAudit(tx, actor, {
    action: "alerts.delete",
    target: `tenant:${tenantId}`,
    tenantId,
    before: audited(view(existing)),
    after: null,
  });
}

/** Removes the settings (no alert is evaluated any more); 404 when the tenant has none. */
export async function deleteAlertSettings(actor: Actor, tenantId: string): Promise<void> {
  await getDb().$transaction((tx) => deleteAlertSettingsIn(tx, actor, tenantId));
}

export async function loadAllAlertSettings(): Promise<TenantAlertSettings[]> {
  const rows = await getDb().alertSettings.findMany({ include: { tenant: { select: { name: true } } } });
  const out: TenantAlertSettings[] = [];
  for (const row of rows) {
    try {
      out.push({
        tenantId: row.tenantId,
        tenantName: row.tenant.name,
        webhookUrl: row.webhookUrl,
        secret: row.secret,
        ...conditions(row),
      });
    } catch {
      // A row written by another version with conditions this one cannot read: skipped.
    }
  }
  return out;
}
