/**
 * Bundles the data plane (lib/runtime/dataPlaneEntry.ts and the lib/ code it imports) into
 * `.next/dataplane.mjs`, which scripts/server.mjs loads in production. Part of `npm run build`,
 * after `next build` (which empties .next). Packages stay external (loaded from node_modules at
 * run time), as in Next's server bundles, so ioredis, pg and prom-client are the same modules.
 * This is a server bundle: `server-only` (which throws unless the `react-server` condition is set)
 * becomes its empty module, as Next does for route handlers.
 * The `.proto` files of Envoy's rate limit service (lib/dataplane/envoy/proto) are read at run time:
 * they are copied to `.next/proto`, where lib/dataplane/envoy/rlsProto.ts finds them beside the bundle.
 */
import { cpSync } from "node:fs";
import { build } from "esbuild";

await build({
  entryPoints: ["lib/runtime/dataPlaneEntry.ts"],
  outfile: ".next/dataplane.mjs",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  // Takes precedence over `packages: "external"`: the empty module is bundled, no import is left.
  alias: { "server-only": "./node_modules/server-only/empty.js" },
  sourcemap: "linked",
  logLevel: "warning",
});
cpSync("lib/dataplane/envoy/proto", ".next/proto", { recursive: true });
console.log("data plane: .next/dataplane.mjs, .next/proto");
