/**
 * Every page checked by a real tool (axe-core) in light and dark mode: no serious or critical
 * violation. Each page's full-page screenshot is attached to the report in both modes (the pages
 * with live traffic, so the charts and tables are drawn): login, overview, tenants, tenant,
 * simulator, key, audit, operators, API tokens, API docs.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { echo, tenantWithKey, uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";

async function check(page: Page, testInfo: TestInfo, name: string, scheme: "light" | "dark"): Promise<string[]> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForLoadState("networkidle").catch(() => undefined);
  await attachScreenshot(page, testInfo, `${name} (${scheme})`);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${name} (${scheme}): ${v.id} [${v.impact}] ${v.help} — ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
}

test("axe finds no serious or critical violation on any page, light and dark", async ({
  page,
  api,
  request,
}, testInfo) => {
  test.setTimeout(360_000);
  const { tenant, key } = await tenantWithKey(api, uniqueName("a11y"), [
    { name: "per-key", limit: 2, windowMs: 60_000 },
  ]);
  for (let i = 0; i < 4; i++) await echo(request, key.key);

  const found: string[] = [];
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Log in" })).toBeVisible();
  for (const scheme of ["light", "dark"] as const) found.push(...(await check(page, testInfo, "login", scheme)));

  await logInAsAdmin(page);
  const pages: [string, string, string][] = [
    ["overview", "/", "Overview"],
    ["tenants", "/tenants", "Tenants"],
    ["tenant", `/tenants/${tenant.id}`, tenant.name],
    ["simulator", `/tenants/${tenant.id}/simulate`, `Rule simulator: ${tenant.name}`],
    ["key", `/keys/${key.id}`, key.name],
    ["audit", "/audit", "Audit log"],
    ["operators", "/operators", "Operators"],
    ["tokens", "/tokens", "API tokens"],
  ];
  for (const [name, path, heading] of pages) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    for (const scheme of ["light", "dark"] as const) found.push(...(await check(page, testInfo, name, scheme)));
  }
  expect(found).toEqual([]);
});

// The API reference is one long page (every operation, schema and answer): checked on its own.
test("axe finds no serious or critical violation on the API docs page, light and dark", async ({ page }, testInfo) => {
  test.setTimeout(360_000);
  await logInAsAdmin(page);
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1, name: /Sluice API/ })).toBeVisible({ timeout: 30_000 });
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) found.push(...(await check(page, testInfo, "docs", scheme)));
  expect(found).toEqual([]);
});
