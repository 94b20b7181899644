import type { Metadata } from "next";
import UsagePage from "@/components/usage/UsagePage";

export const metadata: Metadata = { title: "Usage" };

export default async function Page({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  return <UsagePage tenantId={tenantId} />;
}
