/**
 * Issue 31, point 7: every dashboard page (each app/(dashboard) route, the API docs included)
 * fits a 390 px phone: the document never scrolls sideways (wide tables scroll inside their own
 * box). The tenant page shows its traffic before the configuration, with a way to jump to each part.
 */
import {
  furnishedDashboard,
  dashboardRoutesOnDisk,
  openDashboardPage,
  overflowingElements,
} from "./support/dashboardPages";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";

test("at 390 px no dashboard page scrolls sideways", async ({ page, api, request }, testInfo) => {
  test.setTimeout(240_000);
  const { pages } = await furnishedDashboard(api, request);
  expect(pages.map((p) => p.route).sort(), "every page of app/(dashboard) is checked").toEqual(dashboardRoutesOnDisk());

  await page.setViewportSize({ width: 390, height: 844 });
  await logInAsAdmin(page);
  const wide: string[] = [];
  for (const target of pages) {
    await openDashboardPage(page, target);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scrollWidth > 390) {
      wide.push(`${target.name}: ${scrollWidth} px wide; ${(await overflowingElements(page)).join(", ")}`);
      await attachScreenshot(page, testInfo, `${target.name} at 390 px`);
    }
  }
  expect(wide).toEqual([]);
});

test("the tenant page shows its traffic first with jump links; key rows revoke with a quiet button, the dialog keeps the danger", async ({
  page,
  api,
  request,
}) => {
  const { pages } = await furnishedDashboard(api, request);
  await page.setViewportSize({ width: 1440, height: 900 });
  await logInAsAdmin(page);
  await openDashboardPage(
    page,
    pages.find((p) => p.name === "tenant")!,
  );

  // Traffic is the first thing under the header, above the keys and the rules.
  const top = async (name: string) =>
    (await page.getByRole("heading", { level: 2, name, exact: true }).boundingBox())!.y;
  const traffic = await top("Traffic");
  expect(traffic).toBeLessThan(await top("API keys"));
  expect(await top("API keys")).toBeLessThan(await top("Rules"));
  expect(traffic).toBeLessThan(900);

  // "On this page": each link lands on its part.
  const jump = page.getByRole("navigation", { name: "On this page" });
  await jump.getByRole("link", { name: "Alerts" }).click();
  await expect(page).toHaveURL(/#alerts-heading$/);
  await expect(page.getByRole("heading", { level: 2, name: "Alerts" })).toBeInViewport();
  for (const link of await jump.getByRole("link").all()) {
    const target = (await link.getAttribute("href"))!;
    await expect(page.locator(target), `${target} exists`).toHaveCount(1);
  }

  // The row's Revoke is quiet (no filled red); the dialog's confirm is the red one.
  const revoke = page.getByRole("button", { name: /^Revoke key / }).first();
  const danger = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue("--danger").trim(),
  );
  const fill = await revoke.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(fill).toBe("rgba(0, 0, 0, 0)");
  await revoke.click();
  const dialog = page.getByRole("dialog", { name: /^Revoke key/ });
  const confirmFill = await dialog
    .getByRole("button", { name: "Revoke key" })
    .evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(confirmFill).toBe(
    await page.evaluate((color) => {
      const probe = document.createElement("span");
      probe.style.color = color;
      document.body.append(probe);
      const rgb = getComputedStyle(probe).color;
      probe.remove();
      return rgb;
    }, danger),
  );
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
});

test("the simulator's editor has the full width: no field cut off, and an error is never under the sticky save bar", async ({
  page,
  api,
  request,
}) => {
  const { pages } = await furnishedDashboard(api, request);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await logInAsAdmin(page);
    await openDashboardPage(
      page,
      pages.find((p) => p.name === "simulator")!,
    );
    const form = page.getByRole("form", { name: "Candidate rules" });
    // The last rule's drawer: its fields lie inside the card, not past its edge.
    await form.getByRole("button", { name: /^Edit Rule 6/ }).click();
    const card = (await page.getByRole("region", { name: "Candidate rules" }).boundingBox())!;
    for (const label of ["Name", "Limit", "Window"]) {
      const field = (await form.getByLabel(label, { exact: true }).boundingBox())!;
      expect(field.x + field.width, `${label} at ${width} px`).toBeLessThanOrEqual(card.x + card.width);
    }
    // A refused field takes the focus and shows its error above the save bar.
    await form.getByLabel("Limit").fill("0");
    await form.getByRole("button", { name: "Run simulation" }).click();
    await expect(form.getByLabel("Limit")).toBeFocused();
    const error = form.getByText(/Limit must be at least 1/);
    await expect(error).toBeInViewport();
    const errorBox = (await error.boundingBox())!;
    const bar = (await form.getByRole("group", { name: "Save bar" }).boundingBox())!;
    expect(errorBox.y + errorBox.height, `the error clears the save bar at ${width} px`).toBeLessThanOrEqual(bar.y);
  }
});
