import type { Metadata } from "next";
import TenantPage from "@/components/tenants/TenantPage";

export const metadata: Metadata = { title: "Tenant" };

export default async function Page({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  return <TenantPage tenantId={tenantId} />;
}
