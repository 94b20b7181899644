/**
 * Tiers in the browser: an admin opens a new tier `pro` on the tenant page and gives it a rule with
 * the rule editor (a tier rule of scope tenant is not even offered), creates a key in that tier,
 * moves another key into it on its key page (the effective rules then show the tier's rule), and
 * deletes the tier's rules: the tier stays listed while keys name it. Every step is what the API
 * answers afterwards.
 */
import { attachScreenshot, expect, test } from "./support/fixtures";
import { uniqueName } from "./support/adminApi";
import { logInAsAdmin } from "./support/session";

test("an admin edits a tier's rules and puts keys in the tier", async ({ page, api }, testInfo) => {
  test.setTimeout(90_000);
  const tenant = await api.createTenant(uniqueName("tiers-tenant"));
  const existing = await api.createKey(tenant.id, "existing key");
  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}`);

  const card = page.getByRole("region", { name: "Tiers" });
  await expect(card.getByText("No tiers")).toBeVisible();
  await card.getByLabel("Tier name").fill("Pro plan");
  await card.getByRole("button", { name: "Open tier" }).click();
  await expect(card.getByText(/tier must be 1-64 characters/)).toBeVisible();
  await card.getByLabel("Tier name").fill("pro");
  await card.getByRole("button", { name: "Open tier" }).click();
  const editor = card.getByRole("region", { name: "Tier pro" });
  await expect(editor.getByText("No rules: callers in this tier have the tenant's rules.")).toBeVisible();
  await editor.getByRole("button", { name: "Edit rules" }).click();
  const form = editor.getByRole("form", { name: "Tier pro" });
  await form.getByRole("button", { name: "Add rule" }).click();
  await form.getByLabel("Name", { exact: true }).fill("per-key");
  await expect(form.getByLabel("Scope").locator("option[value=tenant]")).toHaveCount(0);
  await form.getByLabel("Algorithm").selectOption("sliding_log");
  await form.getByLabel("Limit").fill("100");
  await form.getByLabel("Window").fill("1 h");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(editor.getByRole("status").filter({ hasText: "Saved 1 rule" })).toBeVisible();
  const tiers = card.getByRole("table", { name: "Tiers" });
  await expect(tiers.getByRole("row", { name: /pro/ })).toContainText("1");
  expect((await api.call("GET", `/api/admin/tenants/${tenant.id}/tiers/pro/rules`)).body).toMatchObject([
    { name: "per-key", scope: "key", algorithm: "sliding_log", limit: 100, windowMs: 3_600_000 },
  ]);

  // A new key, created in the tier.
  await page.getByLabel("Key name").fill("pro key");
  await page.getByLabel("Tier (optional)").fill("pro");
  await page.getByRole("button", { name: "Create key" }).click();
  const notice = page.getByRole("region", { name: "New key pro key" });
  await notice.getByRole("button", { name: "I have stored it" }).click();
  const keys = page.getByRole("table", { name: "API keys" });
  await expect(keys.getByRole("row", { name: /pro key/ })).toContainText("pro");
  await expect(tiers.getByRole("row", { name: /pro/ }).getByRole("cell").nth(2)).toHaveText("1");

  // An existing key moved into the tier on its key page.
  await page.goto(`/keys/${existing.id}`);
  await expect(page.getByTestId("key-tier")).toHaveText("none");
  const tierForm = page.getByRole("form", { name: "Key tier" });
  await tierForm.getByLabel("Tier").fill("pro");
  await tierForm.getByRole("button", { name: "Save tier" }).click();
  await expect(page.getByTestId("key-tier")).toHaveText("pro");
  const effective = page.getByRole("table", { name: "Effective rules" });
  await expect(effective.getByRole("row", { name: /per-key/ })).toContainText("tier rule");
  expect((await api.call("GET", `/api/admin/keys/${existing.id}`)).body).toMatchObject({
    tier: "pro",
    rules: { effective: [{ name: "per-key", source: "tier", limit: 100 }] },
  });
  await attachScreenshot(page, testInfo, "key in tier pro");

  // The tier's rules deleted: the tier stays listed, named by two keys.
  await page.goto(`/tenants/${tenant.id}`);
  await tiers.getByRole("button", { name: "Edit tier pro" }).click();
  await card.getByRole("button", { name: "Delete tier rules" }).click();
  await expect(tiers.getByRole("row", { name: /pro/ }).getByRole("cell").nth(1)).toHaveText("0");
  await expect(tiers.getByRole("row", { name: /pro/ }).getByRole("cell").nth(2)).toHaveText("2");
  expect((await api.call("GET", `/api/admin/tenants/${tenant.id}/tiers`)).body).toEqual([
    { name: "pro", rules: [], keys: 2 },
  ]);
});
