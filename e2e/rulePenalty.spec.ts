/**
 * The rule editor's Penalty field (rule field blockMs): typed as a duration, refused inline in the
 * form's words when it is not one (nothing sent), saved as milliseconds, shown back as a duration in
 * the list, the drawer and the save bar's summary of changes.
 */
import { attachScreenshot, expect, test } from "./support/fixtures";
import { newRuleForm } from "./support/newRuleForm";

test("a penalty is entered as a duration, refused inline when it is not one, saved as blockMs and shown back", async ({
  page,
  api,
}, testInfo) => {
  const { tenant, form, puts } = await newRuleForm(page, api, "penalty", "login-attempts");
  await form.getByLabel("Limit").fill("5");
  await expect(form.getByLabel("Penalty")).toHaveValue("");
  await expect(form.getByLabel("Penalty")).toHaveAccessibleDescription(
    /once this rule refuses a client, refuse it for this long/,
  );

  // A bare number has no unit: an inline message in the form's words, nothing sent.
  await form.getByLabel("Penalty").fill("600");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(form.getByRole("alert")).toHaveText("Nothing was saved: fix the fields marked below.");
  await expect(form.getByLabel("Penalty")).toHaveAccessibleDescription(
    /Penalty: write a number and a unit: 500 ms, 30 s, 1 min, 2 h, 1 d, or leave it empty for none/,
  );
  await expect(form.getByLabel("Penalty")).toHaveAttribute("aria-invalid", "true");
  await expect(form).not.toContainText("blockMs");
  await form.getByLabel("Penalty").fill("400 d");
  await expect(form.getByLabel("Penalty")).toHaveAccessibleDescription(/Penalty must be at most 366 days/);
  await attachScreenshot(page, testInfo, "penalty field with an inline error");
  expect(puts()).toBe(0);

  await form.getByLabel("Penalty").fill("10 min");
  await expect(form.getByText(/Penalty must be/)).toHaveCount(0);
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toContainText(
    "in force on every instance",
  );
  expect(puts()).toBe(1);
  expect(await api.getTenantRules(tenant.id)).toEqual([
    expect.objectContaining({ name: "login-attempts", limit: 5, blockMs: 600_000 }),
  ]);

  // Shown back: in the list, in the drawer, and in the summary of a change.
  const list = page.getByRole("table", { name: "Rules" });
  await expect(list.getByRole("row", { name: /login-attempts/ })).toContainText("10 min");
  await page.getByRole("button", { name: "Edit rules" }).click();
  await form.getByRole("button", { name: "Edit Rule 1: login-attempts" }).click();
  await expect(form.getByLabel("Penalty")).toHaveValue("10 min");
  await form.getByLabel("Penalty").fill("");
  await expect(form.getByTestId("rule-changes")).toHaveText("1 change: login-attempts: penalty 10 min → none");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toBeVisible();
  expect(await api.getTenantRules(tenant.id)).toEqual([
    expect.objectContaining({ name: "login-attempts", blockMs: 0 }),
  ]);
  await expect(list.getByRole("row", { name: /login-attempts/ })).toContainText("none");
});
