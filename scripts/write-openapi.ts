/**
 * Writes the OpenAPI document (lib/control/openapi) to a file: `tsx scripts/write-openapi.ts <out.json>`.
 * packages/client generates its types from it at build time (npm run client:build).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { openApiDocument } from "../lib/control/openapi/openApiDocument";

const out = process.argv[2];
if (!out) {
  console.error("usage: tsx scripts/write-openapi.ts <out.json>");
  process.exit(2);
}
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${out}`);
