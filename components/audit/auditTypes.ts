/** The audit API's answer (GET /api/admin/audit), as the dashboard reads it. */
import type { AuditEventView } from "@/lib/policy/audit/auditLog";

export type AuditEvent = AuditEventView;

export const AUDIT_PAGE_SIZE = 50;

/** `operator:<email>` → the email; `token` → the admin API token. */
export function actorLabel(actor: string): string {
  if (actor.startsWith("operator:")) return actor.slice("operator:".length);
  if (actor === "token") return "admin API token";
  return actor;
}
