import type { Metadata } from "next";
import AuditLog from "@/components/audit/AuditLog";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { tenantId } = await searchParams;
  // Only a well-formed id reaches the API; anything else shows every change.
  const id = typeof tenantId === "string" && /^[0-9A-Za-z]{8}$/.test(tenantId) ? tenantId : undefined;
  return <AuditLog tenantId={id} />;
}
