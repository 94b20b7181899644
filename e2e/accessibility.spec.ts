/**
 * Every page checked by a real tool (axe-core) at 1440 and 390 px, light and dark: no serious or
 * critical violation (issue 31, point 10). Also in the states that only show after a click: an
 * audit entry's before and after expanded, the revoke dialog open, a confirmation asked, the rule
 * editor and the simulator showing field errors. Each check's full-page screenshot is attached to
 * the report (pages with live traffic, so the charts and tables are drawn).
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { furnishedDashboard, openDashboardPage } from "./support/dashboardPages";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";

const WIDTHS = [1440, 390] as const;
const SCHEMES = ["light", "dark"] as const;

async function violations(page: Page, testInfo: TestInfo, name: string, fullPage = true): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    const label = `${name} at ${page.viewportSize()?.width} px (${scheme})`;
    if (fullPage) await attachScreenshot(page, testInfo, label);
    else await testInfo.attach(label, { body: await page.screenshot(), contentType: "image/png" });
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    found.push(
      ...results.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map(
          (v) =>
            `${label}: ${v.id} [${v.impact}] ${v.help} — ${v.nodes
              .map((n) => n.target.join(" "))
              .slice(0, 3)
              .join(", ")}`,
        ),
    );
  }
  return found;
}

test("axe finds no serious or critical violation on any page, at 1440 and 390 px, light and dark", async ({
  page,
  api,
  request,
}, testInfo) => {
  test.setTimeout(600_000);
  const { pages } = await furnishedDashboard(api, request);
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    // Leave the dashboard before logging out: a page still polling would meet the ended session (401s).
    await page.goto("about:blank");
    await page.context().clearCookies();
    await page.goto("/login");
    await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
    found.push(...(await violations(page, testInfo, "login")));

    await logInAsAdmin(page);
    // The API reference is one long page (every operation, schema and answer): checked on its own.
    for (const target of pages.filter((p) => p.name !== "docs")) {
      await openDashboardPage(page, target);
      found.push(...(await violations(page, testInfo, target.name)));
    }
  }
  expect(found).toEqual([]);
});

test("axe finds no serious or critical violation on the API docs page, at 1440 and 390 px, light and dark", async ({
  page,
}, testInfo) => {
  test.setTimeout(900_000);
  await logInAsAdmin(page);
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto("/docs");
    await expect(page.getByRole("heading", { level: 1, name: /Sluice API/ })).toBeVisible({ timeout: 30_000 });
    // Its top only in the report: the whole reference is tens of thousands of pixels tall.
    found.push(...(await violations(page, testInfo, "docs", false)));
  }
  expect(found).toEqual([]);
});

test("axe finds no serious or critical violation with panels expanded, dialogs open and form errors shown", async ({
  page,
  api,
  request,
}, testInfo) => {
  test.setTimeout(600_000);
  const { pages, keyId } = await furnishedDashboard(api, request);
  const at = (name: string) => pages.find((p) => p.name === name)!;
  await logInAsAdmin(page);
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });

    // The audit log: the latest entry's before and after, expanded.
    await openDashboardPage(page, at("audit"));
    const entry = page.getByRole("article").first();
    await entry.getByText("Before and after").click();
    await expect(entry.getByLabel("After")).toBeVisible();
    found.push(...(await violations(page, testInfo, "audit, before and after expanded")));

    // The tenant page: the revoke dialog open over the keys.
    await openDashboardPage(page, at("tenant"));
    await page
      .getByRole("button", { name: /^Revoke key / })
      .first()
      .click();
    const dialog = page.getByRole("dialog", { name: /^Revoke key/ });
    await expect(dialog).toBeVisible();
    found.push(...(await violations(page, testInfo, "tenant, revoke dialog open")));
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();

    // The tenant's rule editor refusing a limit of 0: the error on the field, the form's alert.
    await page.getByRole("button", { name: "Edit rules" }).click();
    const rules = page.getByRole("form", { name: "Rules" });
    await rules.getByRole("button", { name: /^Edit Rule 1/ }).click();
    await rules.getByLabel("Limit").fill("0");
    await rules.getByRole("button", { name: "Save rules" }).click();
    await expect(rules.getByLabel("Limit")).toHaveAttribute("aria-invalid", "true");
    found.push(...(await violations(page, testInfo, "tenant, rule editor with a field error")));

    // The key page: a reset asked for confirmation.
    await page.goto(`/keys/${keyId}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.getByRole("button", { name: "Reset quota" }).click();
    await expect(page.getByRole("group", { name: /^Reset every counter of/ })).toBeVisible();
    found.push(...(await violations(page, testInfo, "key, reset asked")));

    // The simulator refusing a candidate: the error beside the field, not under the save bar.
    await openDashboardPage(page, at("simulator"));
    const candidate = page.getByRole("form", { name: "Candidate rules" });
    await candidate.getByRole("button", { name: /^Edit Rule 1/ }).click();
    await candidate.getByLabel("Limit").fill("0");
    await candidate.getByRole("button", { name: "Run simulation" }).click();
    await expect(candidate.getByRole("alert")).toHaveText("Nothing was simulated: fix the fields marked below.");
    found.push(...(await violations(page, testInfo, "simulator, candidate with a field error")));
  }
  expect(found).toEqual([]);
});
