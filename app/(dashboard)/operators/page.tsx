import type { Metadata } from "next";
import OperatorList from "@/components/operators/OperatorList";

export const metadata: Metadata = { title: "Operators" };

export default function OperatorsPage() {
  return <OperatorList />;
}
