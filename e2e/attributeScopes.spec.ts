/**
 * The rule editor's header/query scope controls: picking `header` shows the header name and the
 * "When missing" choice; a missing name is an inline error from the shared schema (nothing sent);
 * a credential header is refused by the same schema; a valid rule is saved as the API stores it.
 */
import { expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";
import { uniqueName } from "./support/adminApi";

test("a header-scoped rule: name the header, choose what a missing one gets, save", async ({ page, api }) => {
  const tenant = await api.createTenant(uniqueName("attr-scope"));
  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}`);
  await page.getByRole("button", { name: "Edit rules" }).click();
  const form = page.getByRole("form", { name: "Rules" });
  await form.getByRole("button", { name: "Add rule" }).click();

  await expect(form.getByLabel("Header", { exact: true })).toHaveCount(0);
  await form.getByLabel("Name", { exact: true }).fill("per-user");
  await form.getByLabel("Limit").fill("10");
  await form.getByLabel("Scope").selectOption("header");
  await expect(form.getByLabel("When missing")).toHaveValue("skip");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(form.getByLabel("Header", { exact: true })).toHaveAccessibleDescription(/Name the header to count by/);
  expect(await api.getTenantRules(tenant.id)).toEqual([]);

  await form.getByLabel("Header", { exact: true }).fill("Authorization");
  await expect(form.getByLabel("Header", { exact: true })).toHaveAccessibleDescription(
    /may not be authorization: it carries credentials/,
  );

  await form.getByLabel("Header", { exact: true }).fill("X-User-Id");
  await form.getByLabel("When missing").selectOption("refuse");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toBeVisible();
  expect(await api.getTenantRules(tenant.id)).toEqual([
    expect.objectContaining({ name: "per-user", scope: "header", scopeKey: "x-user-id", onMissing: "refuse" }),
  ]);

  // Reopened, the editor shows what is stored; switching to query keeps one name field.
  await page.getByRole("button", { name: "Edit rules" }).click();
  await form.getByRole("button", { name: "Edit Rule 1: per-user" }).click();
  await expect(form.getByLabel("Header", { exact: true })).toHaveValue("x-user-id");
  await form.getByLabel("Scope").selectOption("query");
  await expect(form.getByLabel("Query parameter")).toHaveValue("x-user-id");
});
