/**
 * Every page checked by a real tool (axe-core) at 1440 and 390 px, light and dark: no serious or
 * critical violation (issue 31, point 10). Also in the states that only show after a click: an
 * audit entry's before and after expanded, the revoke dialog open, a confirmation asked, the rule
 * editor and the simulator showing field errors. Each check's full-page screenshot is attached to
 * the report (pages with live traffic, so the charts and tables are drawn).
 * Each page (or state) is loaded once and checked at both widths: loaded at 1440 px, then narrowed
 * to 390 px in place (the layout is CSS media queries and ResizeObserver, so it follows a resize);
 * the scheme switches by emulating prefers-color-scheme, which the styles and the chart palette follow.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { type DashboardPage, furnishedDashboard, openDashboardPage } from "./support/dashboardPages";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";

const VIEWPORTS = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;
const SCHEMES = ["light", "dark"] as const;

/** Resolves once the page has drawn two frames: a resize or a scheme change has been laid out and painted. */
function settled(page: Page): Promise<void> {
  return page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

async function violations(page: Page, testInfo: TestInfo, name: string, fullPage = true): Promise<string[]> {
  const found: string[] = [];
  for (const scheme of SCHEMES) {
    await page.emulateMedia({ colorScheme: scheme });
    await settled(page);
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

/** The page as it stands, at 1440 px then 390 px (resized in place), light and dark at each. */
async function violationsAtEachWidth(page: Page, testInfo: TestInfo, name: string, fullPage = true): Promise<string[]> {
  const found: string[] = [];
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);
    await settled(page);
    found.push(...(await violations(page, testInfo, name, fullPage)));
  }
  return found;
}

/** Opens a page at 1440 px (the width each check starts from). */
async function openWide(page: Page, target: DashboardPage): Promise<void> {
  await page.setViewportSize(VIEWPORTS[0]);
  await openDashboardPage(page, target);
}

test("axe finds no serious or critical violation on any page, at 1440 and 390 px, light and dark", async ({
  page,
  api,
  request,
}, testInfo) => {
  test.setTimeout(600_000);
  const { pages } = await furnishedDashboard(api, request);
  const found: string[] = [];
  await page.setViewportSize(VIEWPORTS[0]);
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
  found.push(...(await violationsAtEachWidth(page, testInfo, "login")));

  await logInAsAdmin(page);
  // The API reference is one long page (every operation, schema and answer): checked on its own.
  for (const target of pages.filter((p) => p.name !== "docs")) {
    await openWide(page, target);
    found.push(...(await violationsAtEachWidth(page, testInfo, target.name)));
  }
  expect(found).toEqual([]);
});

test("axe finds no serious or critical violation on the API docs page, at 1440 and 390 px, light and dark", async ({
  page,
}, testInfo) => {
  test.setTimeout(900_000);
  await logInAsAdmin(page);
  await page.setViewportSize(VIEWPORTS[0]);
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1, name: /Sluice API/ })).toBeVisible({ timeout: 30_000 });
  // Its top only in the report: the whole reference is tens of thousands of pixels tall.
  const found = await violationsAtEachWidth(page, testInfo, "docs", false);
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
  // Each state is reached at each width (the clicks too), then checked light and dark.
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport);

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
