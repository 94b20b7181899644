import { defineConfig, devices } from "@playwright/test";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  ADMIN_TOKEN,
  IDP_ADMIN_GROUP,
  IDP_CLIENT_ID,
  IDP_CLIENT_SECRET,
  IDP_ISSUER,
  IDP_VIEWER_GROUP,
  REDIS_PREFIX,
} from "./e2e/support/testEnv";

// E2E_PORT lets two checkouts run the suite side by side.
const PORT = Number(process.env.E2E_PORT || 3107);
const baseURL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  globalTeardown: "./e2e/support/global-teardown.ts",
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: 1,
  outputDir: "test-results",
  reporter: [["list"], ["json", { outputFile: "reports/playwright.json" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        // Debian's chromium; Playwright's own browser download is unreachable here.
        launchOptions: {
          executablePath: "/usr/bin/chromium",
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
          ],
        },
      },
    },
  ],
  webServer: {
    command: "node scripts/server.mjs",
    url: `${baseURL}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_ENV: "production",
      PORT: String(PORT),
      HOSTNAME: "127.0.0.1",
      // Test-only credentials (e2e/support/testEnv.ts): the first admin is created from them.
      SLUICE_ADMIN_EMAIL: ADMIN_EMAIL,
      SLUICE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SLUICE_ADMIN_TOKEN: ADMIN_TOKEN,
      SLUICE_REDIS_PREFIX: REDIS_PREFIX,
      // e2e/alerts.spec.ts: alerts evaluated every second, delivered to its receiver on the loopback.
      SLUICE_ALERT_INTERVAL_MS: "1000",
      SLUICE_ALERT_ALLOWED_ADDRESSES: "127.0.0.1",
      // e2e/sso.spec.ts: single sign-on against the OpenID provider that spec starts (e2e/support/testIdp.ts).
      SLUICE_OIDC_ISSUER: IDP_ISSUER,
      SLUICE_OIDC_CLIENT_ID: IDP_CLIENT_ID,
      SLUICE_OIDC_CLIENT_SECRET: IDP_CLIENT_SECRET,
      SLUICE_OIDC_ROLE_CLAIM: "groups",
      SLUICE_OIDC_ADMIN_VALUES: IDP_ADMIN_GROUP,
      SLUICE_OIDC_VIEWER_VALUES: IDP_VIEWER_GROUP,
      SLUICE_OIDC_LABEL: "Test IdP",
    },
  },
});
