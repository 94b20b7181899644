import type { Metadata } from "next";
import ApiReference from "@/components/docs/ApiReference";
import type { OpenApiDoc } from "@/components/docs/openApiTypes";
import { openApiDocument } from "@/lib/control/openapi/openApiDocument";

export const metadata: Metadata = { title: "API reference" };

export default function DocsPage() {
  return <ApiReference doc={openApiDocument() as unknown as OpenApiDoc} />;
}
