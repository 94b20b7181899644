import type { Metadata } from "next";
import TokenList from "@/components/tokens/TokenList";

export const metadata: Metadata = { title: "API tokens" };

export default function TokensPage() {
  return <TokenList />;
}
