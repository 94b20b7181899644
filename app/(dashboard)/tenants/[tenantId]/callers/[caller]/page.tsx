import type { Metadata } from "next";
import CallerPage from "@/components/callers/CallerPage";

export const metadata: Metadata = { title: "Caller" };

export default async function Page({ params }: { params: Promise<{ tenantId: string; caller: string }> }) {
  const { tenantId, caller } = await params;
  return <CallerPage tenantId={tenantId} caller={caller} />;
}
