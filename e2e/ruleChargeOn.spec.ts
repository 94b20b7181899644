/**
 * The rule editor's "Charge only responses" control (rule field chargeOn): checkboxes per status
 * class, refused inline in the form's words where it cannot apply (an identifier rule; nothing
 * sent), saved as chargeOn, shown back in the list, the drawer and the save bar's summary.
 */
import { attachScreenshot, expect, test } from "./support/fixtures";
import { newRuleForm } from "./support/newRuleForm";

test("status classes to charge are checked, refused inline on an identifier rule, saved as chargeOn and shown back", async ({
  page,
  api,
}, testInfo) => {
  const { tenant, form, puts } = await newRuleForm(page, api, "chargeon", "failed-logins");
  await form.getByLabel("Limit").fill("5");
  const control = form.getByRole("group", { name: "Charge only responses" });
  await expect(control).toHaveAccessibleDescription(/none: charged when admitted/);
  await control.getByLabel("4xx").check();

  // An identifier rule is charged by POST /api/v1/check: refused inline, nothing sent.
  await form.getByLabel("Scope", { exact: true }).selectOption("identifier");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(form.getByRole("alert")).toHaveText("Nothing was saved: fix the fields marked below.");
  await expect(control).toHaveAccessibleDescription(
    /Charge only responses: an identifier rule is charged by POST \/api\/v1\/check/,
  );
  await expect(form).not.toContainText("chargeOn");
  await attachScreenshot(page, testInfo, "charge-only-responses control with an inline error");
  expect(puts()).toBe(0);

  await form.getByLabel("Scope", { exact: true }).selectOption("key");
  await expect(form.getByText(/an identifier rule is charged by/)).toHaveCount(0);
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toContainText(
    "in force on every instance",
  );
  expect(puts()).toBe(1);
  expect(await api.getTenantRules(tenant.id)).toEqual([
    expect.objectContaining({ name: "failed-logins", limit: 5, chargeOn: ["4xx"] }),
  ]);

  // Shown back: in the list, in the drawer, and in the summary of a change.
  const list = page.getByRole("table", { name: "Rules" });
  await expect(list.getByRole("row", { name: /failed-logins/ })).toContainText("on 4xx");
  await page.getByRole("button", { name: "Edit rules" }).click();
  await form.getByRole("button", { name: "Edit Rule 1: failed-logins" }).click();
  await expect(control.getByLabel("4xx")).toBeChecked();
  await expect(control.getByLabel("5xx")).not.toBeChecked();
  await control.getByLabel("4xx").uncheck();
  await expect(form.getByTestId("rule-changes")).toHaveText(
    "1 change: failed-logins: charged 4xx responses → at admission",
  );
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toBeVisible();
  const [saved] = (await api.getTenantRules(tenant.id)) as Record<string, unknown>[];
  expect(saved).not.toHaveProperty("chargeOn");
});
