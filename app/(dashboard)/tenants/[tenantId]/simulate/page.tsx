import type { Metadata } from "next";
import SimulatorPage from "@/components/simulator/SimulatorPage";

export const metadata: Metadata = { title: "Rule simulator" };

export default async function Page({ params }: { params: Promise<{ tenantId: string }> }) {
  const { tenantId } = await params;
  return <SimulatorPage tenantId={tenantId} />;
}
