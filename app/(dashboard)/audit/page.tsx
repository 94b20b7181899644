import type { Metadata } from "next";
import AuditLog from "@/components/audit/AuditLog";

export const metadata: Metadata = { title: "Audit log" };

/** Filters live in the URL and are read by the log itself (components/audit/auditFilters.ts). */
export default function AuditPage() {
  return <AuditLog />;
}
