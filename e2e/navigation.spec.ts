/**
 * The navigation on a phone (390 x 844): every link and Log out are on screen without scrolling
 * sideways, and Log out works.
 */
import { expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";

test.use({ viewport: { width: 390, height: 844 } });

test("at 390 px every navigation link and Log out are visible, nothing overflows, and Log out logs out", async ({
  page,
}) => {
  await logInAsAdmin(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

  const nav = page.getByRole("navigation", { name: "Main" });
  for (const name of ["Overview", "Tenants", "Audit log", "Operators", "API tokens", "API docs"]) {
    await expect(nav.getByRole("link", { name })).toBeInViewport({ ratio: 1 });
  }
  const logOut = page.getByRole("button", { name: "Log out" });
  await expect(logOut).toBeInViewport({ ratio: 1 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await nav.getByRole("link", { name: "Tenants" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Tenants" })).toBeVisible();
  await expect(logOut).toBeInViewport({ ratio: 1 });

  await logOut.click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
});
