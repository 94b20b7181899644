/**
 * `test` for browser specs: every test fails if its page logged a console error or threw, unless
 * the test declared that error expected (`consoleErrors.allow(/pattern/)`: e.g. the browser's
 * "Failed to load resource: ... 401" when a spec logs in with a wrong password on purpose).
 * Any `alert()`/dialog also fails the test: markup in names must never run.
 * Also: `api`, the admin API with the bearer token; `viewerPage`, the test's page logged in as a
 * viewer operator made for the test (`async ({ viewerPage: page }) => ...`; the operator is deleted
 * after the test, once the page has left the dashboard); `attachScreenshot` for the report.
 */
import { test as base, expect, type Page, type TestInfo } from "@playwright/test";
import { AdminApi, uniqueName } from "./adminApi";
import { deleteLoggedInOperator, logInAs } from "./session";

const VIEWER_PASSWORD = "viewer-password-not-secret";

export class ConsoleErrors {
  private readonly errors: string[] = [];
  private readonly allowed: RegExp[] = [];

  constructor(page: Page) {
    page.on("console", (message) => {
      // The location names the failed resource of a "Failed to load resource" message.
      if (message.type() === "error") this.errors.push(`console: ${message.text()} (${message.location().url})`);
    });
    page.on("pageerror", (error) => this.errors.push(`pageerror: ${error.message}`));
    page.on("dialog", (dialog) => {
      this.errors.push(`dialog (${dialog.type()}): ${dialog.message()}`);
      void dialog.dismiss();
    });
  }

  /** Declares an error this test provokes on purpose. */
  allow(pattern: RegExp): void {
    this.allowed.push(pattern);
  }

  unexpected(): string[] {
    return this.errors.filter((error) => !this.allowed.some((pattern) => pattern.test(error)));
  }
}

export const test = base.extend<{ consoleErrors: ConsoleErrors; api: AdminApi; viewerPage: Page }>({
  consoleErrors: [
    async ({ page }, provide) => {
      const collector = new ConsoleErrors(page);
      await provide(collector);
      expect(collector.unexpected(), "console errors, page errors or dialogs").toEqual([]);
    },
    { auto: true },
  ],
  api: async ({ request }, provide) => {
    await provide(new AdminApi(request));
  },
  viewerPage: async ({ page, api }, provide) => {
    const viewer = await api.createOperator({
      email: `${uniqueName("viewer")}@sluice.test`,
      password: VIEWER_PASSWORD,
      role: "viewer",
    });
    try {
      await logInAs(page, viewer.email, VIEWER_PASSWORD);
      await provide(page);
    } finally {
      await deleteLoggedInOperator(page, api, viewer.id);
    }
  },
});

export { expect };

export async function attachScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
}
