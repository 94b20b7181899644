/**
 * The screenshots of docs/screenshots/ (not a test suite): `npx playwright test -c playwright.shots.config.ts`
 * runs e2e/screenshots/*.shots.ts against the production build, with the demo's rules and traffic.
 * SCREENSHOT_PREFIX names the files (e.g. `before` or `after`). The client addresses of the demo
 * traffic (X-Forwarded-For) are believed, as `npm run demo` does.
 */
import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

export default defineConfig({
  ...base,
  testDir: "e2e/screenshots",
  testMatch: "**/*.shots.ts",
  reporter: "list",
  webServer:
    base.webServer && !Array.isArray(base.webServer)
      ? { ...base.webServer, env: { ...base.webServer.env, SLUICE_TRUST_PROXY: "1" } }
      : base.webServer,
});
