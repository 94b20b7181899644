import type { Metadata } from "next";
import KeyPage from "@/components/keys/KeyPage";

export const metadata: Metadata = { title: "API key" };

export default async function Page({ params }: { params: Promise<{ keyId: string }> }) {
  const { keyId } = await params;
  return <KeyPage keyId={keyId} />;
}
