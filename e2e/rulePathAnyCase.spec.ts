/**
 * The rule editor's "Path in any case" control (rule field match.caseInsensitive): refused inline
 * in the form's words without a path (nothing sent), saved as match.caseInsensitive, shown back in
 * the list, the drawer and the save bar's summary.
 */
import { expect, test } from "./support/fixtures";
import { newRuleForm } from "./support/newRuleForm";

test("path in any case: refused inline without a path, saved as match.caseInsensitive and shown back", async ({
  page,
  api,
}) => {
  const { tenant, form, puts } = await newRuleForm(page, api, "anycase", "logins");
  await form.getByLabel("Limit").fill("5");
  const anyCase = form.getByLabel(/Path in any case/);
  await anyCase.check();

  // Without a path there is nothing to compare: refused inline, nothing sent.
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(form.getByRole("alert")).toHaveText("Nothing was saved: fix the fields marked below.");
  await expect(anyCase).toHaveAccessibleDescription("Any case: write a path to compare, or uncheck it");
  expect(puts()).toBe(0);

  await form.getByLabel("Path", { exact: true }).fill("/login");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toBeVisible();
  expect(puts()).toBe(1);
  expect(await api.getTenantRules(tenant.id)).toEqual([
    expect.objectContaining({ name: "logins", match: { path: "/login", caseInsensitive: true } }),
  ]);

  // Shown back: in the list, in the drawer, and in the summary of a change.
  const list = page.getByRole("table", { name: "Rules" });
  await expect(list.getByRole("row", { name: /logins/ })).toContainText("/login (any case)");
  await page.getByRole("button", { name: "Edit rules" }).click();
  await form.getByRole("button", { name: "Edit Rule 1: logins" }).click();
  await expect(anyCase).toBeChecked();
  await anyCase.uncheck();
  await expect(form.getByTestId("rule-changes")).toHaveText("1 change: logins: applies to /login (any case) → /login");
});
