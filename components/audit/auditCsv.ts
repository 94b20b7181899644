/**
 * The audit log as CSV (RFC 4180: every field quoted, quotes doubled, CRLF line ends), one line
 * per entry with its sentence, for the export button. A leading =, +, - or @ is prefixed with a
 * quote mark so a spreadsheet never runs a name as a formula.
 */
import { auditSentence } from "./auditSentence";
import { actorLabel, type AuditEvent } from "./auditTypes";

const HEADER = ["id", "time", "operator", "action", "target", "tenant", "change", "before", "after"];

function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

export function auditCsv(events: AuditEvent[], tenantName: (tenantId: string) => string | null): string {
  const lines = [HEADER.map(cell).join(",")];
  for (const event of events) {
    const tenant = event.tenantId ? (tenantName(event.tenantId) ?? event.tenantId) : "";
    lines.push(
      [
        event.id,
        event.at,
        actorLabel(event.actor),
        event.action,
        event.targetName ? `${event.target} (${event.targetName})` : event.target,
        tenant,
        auditSentence(event, { tenant: event.tenantId ? tenantName(event.tenantId) : null }),
        event.before === null ? "" : JSON.stringify(event.before),
        event.after === null ? "" : JSON.stringify(event.after),
      ]
        .map(cell)
        .join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}
