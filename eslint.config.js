import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import { layerRules } from "./eslint.layers.js";

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  ...layerRules,
  globalIgnores([
    ".next/**",
    "out/**",
    "node_modules/**",
    "lib/db/generated/**",
    "reports/**",
    "test-results/**",
    "playwright-report/**",
    "blob-report/**",
    "next-env.d.ts",
    "packages/client/generated/**",
    "packages/client/dist/**",
  ]),
]);
