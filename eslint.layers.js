/**
 * The layer order of lib/ as lint rules (docs/architecture.md, "Layers"): a folder may import only
 * from the folders below it, never from one above it or beside it. `npm run lint` (and so CI)
 * fails on an import against this order (import/no-restricted-paths) and on an import cycle
 * anywhere in lib/, app/ and components/ (import/no-cycle). test/lint/layerRules.test.ts proves both.
 *
 * Test files are not bound by the order (an int test may drive an app/ route).
 *
 * LAYERS lists lib/'s layers lowest first; folders in one inner list are peers and do not import
 * each other. INNER orders the subfolders of a layer the same way; the layer's own files (e.g.
 * lib/dataplane/dataPlane.ts) stand above its subfolders.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

export const LAYERS = [
  ["common"],
  ["config"],
  ["redis", "db", "http"],
  ["limiter"],
  ["policy"],
  ["monitoring"],
  // The two planes are peers: neither imports the other. What both need lives below them
  // (the client IP in http/, counter names in limiter/, the check request in policy/); runtime/ wires both.
  ["dataplane", "control"],
  ["runtime"],
];

export const INNER = {
  policy: [
    ["audit"],
    ["tenants"],
    ["rules", "changes"],
    ["keys", "access", "overrides", "upstreams"],
    ["identity"],
    ["compiled"],
  ],
  monitoring: [
    ["prometheus", "record"],
    ["query", "usage"],
  ],
  dataplane: [["admission", "gateway", "envoy"]],
  control: [["auth", "health", "alerts"], ["tokens"], ["admin", "demo"], ["simulator", "policyDocument"], ["openapi"]],
};

const root = path.dirname(fileURLToPath(import.meta.url));

/** Zones that forbid each folder of `levels` (under `parent`) to import anything in `parent` but itself and the levels below it. */
function orderZones(parent, levels) {
  const zones = [];
  levels.forEach((level, i) => {
    const below = levels.slice(0, i).flat();
    for (const folder of level) {
      const allowed = [folder, ...below];
      zones.push({
        target: `./${parent}/${folder}`,
        from: `./${parent}`,
        except: allowed.map((f) => `./${f}`),
        message: `${parent}/${folder} may import only from ${
          allowed
            .slice(1)
            .map((f) => `${parent}/${f}`)
            .join(", ") || "nothing else in " + parent
        } (layer order: eslint.layers.js, docs/architecture.md "Layers").`,
      });
    }
  });
  return zones;
}

export const layerZones = [
  { target: "./lib", from: ["./app", "./components"], message: "lib/ never imports app/ or components/." },
  ...orderZones("lib", LAYERS),
  ...Object.entries(INNER).flatMap(([layer, levels]) => orderZones(`lib/${layer}`, levels)),
];

/** Flat-config entries: the layer zones for lib/, and no import cycle in lib/, app/ and components/. */
export const layerRules = [
  {
    files: ["lib/**/*.{ts,tsx,js,mjs}"],
    // Tests may reach across layers (an int test drives a route of app/): the order binds the code.
    ignores: ["**/*.test.ts"],
    rules: { "import/no-restricted-paths": ["error", { basePath: root, zones: layerZones }] },
  },
  {
    files: ["{lib,app,components}/**/*.{ts,tsx,js,mjs}"],
    // Packages and the generated Prisma client are not parsed for the import graph (no import of
    // theirs leads back into the repository): parsing their type declarations was most of the rule's time.
    settings: { "import/ignore": ["node_modules", "lib/db/generated/"] },
    rules: { "import/no-cycle": ["error", { ignoreExternal: true }] },
  },
];
