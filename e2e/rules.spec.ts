/**
 * The rule editor on a tenant page and on a key page: the algorithm picker and the fields each
 * algorithm uses, inline errors from the shared schema (nothing is sent), the server's 422 placed
 * on its field, the shadow toggle, and key overrides told apart from tenant rules.
 */
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";
import { uniqueName } from "./support/adminApi";

test("invalid input shows inline errors and saves nothing; a valid rule is saved and said to be in force", async ({
  page,
  api,
}, testInfo) => {
  const tenant = await api.createTenant(uniqueName("rules"));
  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}`);
  await expect(page.getByText("No rules: this tenant's keys are not limited.")).toBeVisible();

  let puts = 0;
  page.on("request", (request) => {
    if (request.method() === "PUT" && request.url().endsWith(`/api/admin/tenants/${tenant.id}/rules`)) puts += 1;
  });

  await page.getByRole("button", { name: "Edit rules" }).click();
  const form = page.getByRole("form", { name: "Rules" });
  await form.getByRole("button", { name: "Add rule" }).click();

  // The algorithms are explained once, collapsed; burst appears only for the two that use it.
  const help = form.getByText("How the algorithms differ");
  await expect(help).toBeVisible();
  await expect(form.getByText("twice the limit across a window boundary")).toBeHidden();
  await help.click();
  for (const phrase of [
    "twice the limit across a window boundary",
    "smooths the boundary burst",
    "short bursts",
    "ahead of schedule",
  ]) {
    await expect(form.getByText(phrase)).toBeVisible();
  }
  await help.click();
  await expect(form.getByLabel("Burst")).toHaveCount(0);
  await form.getByLabel("Algorithm").selectOption("token_bucket");
  await expect(form.getByLabel("Burst")).toBeVisible();
  await form.getByLabel("Algorithm").selectOption("fixed_window");
  await expect(form.getByLabel("Burst")).toHaveCount(0);

  await form.getByLabel("Name", { exact: true }).fill("Per Key");
  await form.getByLabel("Limit").fill("0");
  await form.getByLabel("Window").fill("60000");
  await form.getByLabel("Path", { exact: true }).fill("elsewhere");
  await form.getByRole("button", { name: "Save rules" }).click();

  // Plain words on the marked fields: the form's labels, never the API's field names.
  await expect(form.getByRole("alert")).toHaveText("Nothing was saved: fix the fields marked below.");
  await expect(form.getByLabel("Name", { exact: true })).toHaveAccessibleDescription(
    /Name: use 1 to 64 lower-case letters/,
  );
  await expect(form.getByLabel("Limit")).toHaveAccessibleDescription(/Limit must be at least 1/);
  await expect(form.getByLabel("Window")).toHaveAccessibleDescription(
    /Window: write a number and a unit: 500 ms, 30 s, 1 min/,
  );
  await expect(form.getByLabel("Path", { exact: true })).toHaveAccessibleDescription(/Path must start with \//);
  await expect(form).not.toContainText("windowMs");
  await expect(form.locator(`tr[data-rule="Per Key"]`)).toContainText("4 fields to fix");
  await expect(form.getByLabel("Name", { exact: true })).toBeFocused();
  await attachScreenshot(page, testInfo, "rule editor with inline errors");
  expect(puts).toBe(0);
  expect(await api.getTenantRules(tenant.id)).toEqual([]);

  // Errors follow the typing once a save was refused.
  await form.getByLabel("Limit").fill("5");
  await expect(form.getByText("Limit must be at least 1")).toHaveCount(0);

  await form.getByLabel("Name", { exact: true }).fill("per-key");
  await form.getByLabel("Window").fill("1 min");
  await form.getByLabel("Path", { exact: true }).fill("/api/v1/echo/**");
  await form.getByRole("checkbox", { name: "GET" }).check();
  await form.getByRole("checkbox", { name: /^Shadow mode/ }).check();
  await form.getByRole("button", { name: "Save rules" }).click();

  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toContainText(
    "in force on every instance",
  );
  const list = page.getByRole("table", { name: "Rules" });
  await expect(list.getByRole("row", { name: /per-key/ })).toContainText("shadow");
  await expect(list.getByRole("row", { name: /per-key/ })).toContainText("GET /api/v1/echo/**");
  expect(puts).toBe(1);
  expect(await api.getTenantRules(tenant.id)).toEqual([
    expect.objectContaining({
      name: "per-key",
      algorithm: "fixed_window",
      limit: 5,
      windowMs: 60000,
      mode: "shadow",
      match: { methods: ["GET"], path: "/api/v1/echo/**" },
    }),
  ]);
  await attachScreenshot(page, testInfo, "rules saved");

  // Remove it again: an empty list is a valid list.
  await page.getByRole("button", { name: "Edit rules" }).click();
  await form.getByRole("button", { name: /^Remove Rule 1/ }).click();
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 0 rules" })).toBeVisible();
  expect(await api.getTenantRules(tenant.id)).toEqual([]);
});

test("the server's 422 field errors land on their fields", async ({ page, api, consoleErrors }) => {
  const tenant = await api.createTenant(uniqueName("rules-422"));
  await logInAsAdmin(page);
  // The browser runs the server's own schema, so a real 422 cannot be provoked from the form;
  // answer this PUT with one to check the editor places what the server says.
  consoleErrors.allow(/Failed to load resource: the server responded with a status of 422/);
  await page.route(`**/api/admin/tenants/${tenant.id}/rules`, (route) =>
    route.request().method() === "PUT"
      ? route.fulfill({
          status: 422,
          contentType: "application/problem+json",
          body: JSON.stringify({
            title: "Unprocessable Content",
            status: 422,
            detail: "The input is invalid (0.limit: too many).",
            errors: { "0.limit": ["too many for this tenant"] },
          }),
        })
      : route.fallback(),
  );
  await page.goto(`/tenants/${tenant.id}`);
  await page.getByRole("button", { name: "Edit rules" }).click();
  const form = page.getByRole("form", { name: "Rules" });
  await form.getByRole("button", { name: "Add rule" }).click();
  await form.getByLabel("Name", { exact: true }).fill("per-key");
  await form.getByLabel("Limit").fill("7");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(form.getByRole("alert")).toContainText("The server refused the rules");
  await expect(form.getByLabel("Limit")).toHaveAccessibleDescription(/too many for this tenant/);
  await expect(form.getByLabel("Limit")).toHaveAttribute("aria-invalid", "true");
});

test("key overrides: edited with the same editor, told apart from tenant rules", async ({ page, api }, testInfo) => {
  const tenant = await api.createTenant(uniqueName("overrides"));
  await api.putTenantRules(tenant.id, [
    { name: "per-key", limit: 100, windowMs: 60_000 },
    { name: "whole-tenant", scope: "tenant", limit: 1000, windowMs: 60_000 },
  ]);
  const key = await api.createKey(tenant.id, "override key");
  await logInAsAdmin(page);
  await page.goto(`/keys/${key.id}`);

  const effective = page.getByRole("table", { name: "Effective rules" });
  await expect(effective.getByRole("row", { name: /per-key/ })).toContainText("tenant rule");

  await page.getByRole("button", { name: "Edit rules" }).click();
  const form = page.getByRole("form", { name: "Key overrides" });
  await form.getByRole("button", { name: "Add rule" }).click();
  // A key override may not charge the whole tenant or an identifier: those scopes are not offered.
  await expect(form.getByLabel("Scope").locator("option")).toHaveText(["key", "ip", "header", "query"]);
  await form.getByLabel("Name", { exact: true }).fill("per-key");
  await form.getByLabel("Algorithm").selectOption("gcra");
  await form.getByLabel("Limit").fill("10");
  await form.getByLabel("Burst").fill("4");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toContainText(
    "in force on every instance",
  );

  // The override replaced the same-named tenant rule for this key; the other tenant rule stays.
  await expect(effective.getByRole("row", { name: /per-key/ })).toContainText("key override");
  await expect(effective.getByRole("row", { name: /per-key/ })).toContainText("GCRA");
  await expect(effective.getByRole("row", { name: /whole-tenant/ })).toContainText("tenant rule");
  await expect(page.getByRole("meter", { name: "per-key remaining" })).toHaveAttribute("aria-valuemax", "4");
  await attachScreenshot(page, testInfo, "key page with an override");
});

test("the editor with 7 rules fits in two viewport heights at 1440x900; durations are shown back; the save bar stays in view and says what changes", async ({
  page,
  api,
}, testInfo) => {
  const tenant = await api.createTenant(uniqueName("rules-seven"));
  const rules = [
    { name: "per-key", limit: 120, windowMs: 60_000 },
    { name: "per-key-burst", algorithm: "token_bucket", limit: 10, windowMs: 1_000, burst: 40 },
    { name: "per-ip", scope: "ip", limit: 300, windowMs: 60_000 },
    { name: "tenant-hourly", scope: "tenant", limit: 100_000, windowMs: 3_600_000 },
    { name: "writes", limit: 30, windowMs: 60_000, match: { methods: ["POST", "PUT", "DELETE"] } },
    { name: "search", algorithm: "gcra", limit: 5, windowMs: 1_000, burst: 10, match: { path: "/search/**" } },
    { name: "trial", limit: 60, windowMs: 86_400_000, mode: "shadow" },
  ];
  await api.putTenantRules(tenant.id, rules);
  await page.setViewportSize({ width: 1440, height: 900 });
  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}`);
  await page.getByRole("button", { name: "Edit rules" }).click();
  const form = page.getByRole("form", { name: "Rules" });
  const table = form.getByRole("table", { name: "Rules: rules being edited" });
  await expect(table.getByRole("row")).toHaveCount(8);
  await expect(form.locator("details")).toHaveCount(1);
  await expect(table.getByRole("row", { name: /^per-key\b/ }).first()).toContainText("120 per min");
  await expect(table.getByRole("row", { name: /tenant-hourly/ })).toContainText("100,000 per h");
  await expect(table.getByRole("row", { name: /trial/ })).toContainText("60 per d");

  const box = await form.boundingBox();
  expect(box!.height, "editor height with 7 rules").toBeLessThanOrEqual(2 * 900);
  await attachScreenshot(page, testInfo, "rule editor with 7 rules (1440x900)");

  // Open one drawer: its window reads as a duration; change it and the limit.
  await form.getByRole("button", { name: "Edit Rule 1: per-key" }).click();
  await expect(form.getByLabel("Window")).toHaveValue("1 min");
  await form.getByLabel("Limit").fill("60");
  await expect(form.getByTestId("rule-changes")).toHaveText("1 change: per-key: 120 → 60 per min");
  await form.getByRole("button", { name: "Remove Rule 7: trial" }).click();
  await expect(form.getByTestId("rule-changes")).toHaveText("2 changes: per-key: 120 → 60 per min; removed trial");

  // The save bar is in the viewport while the top of the rule list is.
  await table.evaluate((el) => el.scrollIntoView({ block: "start" }));
  await expect(table.getByRole("row").first()).toBeInViewport();
  await expect(form.getByRole("button", { name: "Save rules" })).toBeInViewport();
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 6 rules" })).toBeVisible();
  const saved = await api.getTenantRules(tenant.id);
  expect(saved.find((r) => r.name === "per-key")).toMatchObject({ limit: 60, windowMs: 60_000 });
  expect(saved.map((r) => r.name)).not.toContain("trial");
});
