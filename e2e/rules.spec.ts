/**
 * The rule editor on a tenant page and on a key page: the algorithm picker and the fields each
 * algorithm uses, inline errors from the shared schema (nothing is sent), the server's 422 placed
 * on its field, the shadow toggle, and key overrides told apart from tenant rules.
 */
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";
import { uniqueName } from "./support/adminApi";

test("invalid input shows inline errors and saves nothing; a valid rule is saved and said to be in force", async ({ page, api }, testInfo) => {
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

  // Every algorithm explains itself; burst appears only for the two that use it.
  for (const [algorithm, phrase] of [
    ["Fixed window", "twice the limit across a window boundary"],
    ["Sliding log", "exact"],
    ["Sliding window", "smooths the boundary burst"],
    ["Token bucket", "short bursts"],
    ["GCRA", "ahead of schedule"],
  ] as const) {
    await expect(form.getByRole("radio", { name: new RegExp(`^${algorithm}`) })).toHaveAccessibleDescription(new RegExp(phrase, "i"));
  }
  await expect(form.getByLabel("Burst")).toHaveCount(0);
  await form.getByRole("radio", { name: /^Token bucket/ }).check();
  await expect(form.getByLabel("Burst")).toBeVisible();
  await form.getByRole("radio", { name: /^Fixed window/ }).check();
  await expect(form.getByLabel("Burst")).toHaveCount(0);

  await form.getByLabel("Name", { exact: true }).fill("Per Key");
  await form.getByLabel("Limit").fill("0");
  await form.getByLabel("Window (ms)").fill("1.5");
  await form.getByLabel("Path").fill("/elsewhere");
  await form.getByRole("button", { name: "Save rules" }).click();

  await expect(form.getByRole("alert")).toHaveText("Nothing was saved: fix the fields marked below.");
  await expect(form.getByLabel("Name", { exact: true })).toHaveAccessibleDescription(/must be 1-64 characters of a-z/);
  await expect(form.getByLabel("Limit")).toHaveAccessibleDescription(/limit must be at least 1/);
  await expect(form.getByLabel("Window (ms)")).toHaveAccessibleDescription(/windowMs must be a whole number of milliseconds/);
  await expect(form.getByLabel("Path")).toHaveAccessibleDescription(/path must start with \/api\/v1/);
  await expect(form.getByLabel("Name", { exact: true })).toBeFocused();
  await attachScreenshot(page, testInfo, "rule editor with inline errors");
  expect(puts).toBe(0);
  expect(await api.getTenantRules(tenant.id)).toEqual([]);

  // Errors follow the typing once a save was refused.
  await form.getByLabel("Limit").fill("5");
  await expect(form.getByText("limit must be at least 1")).toHaveCount(0);

  await form.getByLabel("Name", { exact: true }).fill("per-key");
  await form.getByLabel("Window (ms)").fill("60000");
  await form.getByLabel("Path").fill("/api/v1/echo/**");
  await form.getByRole("checkbox", { name: "GET" }).check();
  await form.getByRole("checkbox", { name: /^Shadow mode/ }).check();
  await form.getByRole("button", { name: "Save rules" }).click();

  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toContainText("in force on every instance");
  const list = page.getByRole("table", { name: "Rules" });
  await expect(list.getByRole("row", { name: /per-key/ })).toContainText("shadow");
  await expect(list.getByRole("row", { name: /per-key/ })).toContainText("GET /api/v1/echo/**");
  expect(puts).toBe(1);
  expect(await api.getTenantRules(tenant.id)).toEqual([
    expect.objectContaining({ name: "per-key", algorithm: "fixed_window", limit: 5, windowMs: 60000, mode: "shadow", match: { methods: ["GET"], path: "/api/v1/echo/**" } }),
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
          body: JSON.stringify({ title: "Unprocessable Content", status: 422, detail: "The input is invalid (0.limit: too many).", errors: { "0.limit": ["too many for this tenant"] } }),
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
  await expect(form.getByLabel("Scope").locator("option")).toHaveText(["key", "ip"]);
  await form.getByLabel("Name", { exact: true }).fill("per-key");
  await form.getByRole("radio", { name: /^GCRA/ }).check();
  await form.getByLabel("Limit").fill("10");
  await form.getByLabel("Burst").fill("4");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toContainText("in force on every instance");

  // The override replaced the same-named tenant rule for this key; the other tenant rule stays.
  await expect(effective.getByRole("row", { name: /per-key/ })).toContainText("key override");
  await expect(effective.getByRole("row", { name: /per-key/ })).toContainText("GCRA");
  await expect(effective.getByRole("row", { name: /whole-tenant/ })).toContainText("tenant rule");
  await expect(page.getByRole("meter", { name: "per-key remaining" })).toHaveAttribute("aria-valuemax", "4");
  await attachScreenshot(page, testInfo, "key page with an override");
});
