import { defineConfig, devices } from "@playwright/test";
import { SERVER_ENV } from "./e2e/support/testEnv";

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
    env: { ...SERVER_ENV, PORT: String(PORT) },
  },
});
