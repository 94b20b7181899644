/**
 * Grants on the key page (the checked-form scaffold, components/forms/CheckedForm.tsx): the form
 * checks its input with the API's own schema (nothing sent), shows the server's refusal of a rule
 * name on the rule field, and a grant that is accepted appears in the table and can be ended.
 */
import { expect, test } from "./support/fixtures";
import { tenantWithKey, uniqueName } from "./support/adminApi";
import { logInAsAdmin } from "./support/session";

test("grant units from the key page: checked first, refused on its field, then listed and ended", async ({
  page,
  api,
  consoleErrors,
}) => {
  consoleErrors.allow(/Failed to load resource: the server responded with a status of 422/);
  await logInAsAdmin(page);
  const { key } = await tenantWithKey(api, uniqueName("grants"), [
    { name: "per-key", algorithm: "fixed_window", scope: "key", limit: 10, windowMs: 60_000 },
  ]);
  await page.goto(`/keys/${key.id}`);
  const card = page.getByRole("region", { name: "Grants" });
  await expect(card.getByTestId("no-grants")).toBeVisible();
  const form = card.getByRole("form", { name: "Add a grant" });
  const units = form.getByLabel("Units");
  const rule = form.getByLabel("Rule (empty: every key rule)");

  // Checked in the browser with the API's schema: nothing is sent.
  await form.getByRole("button", { name: "Grant units" }).click();
  await expect(units).toHaveAccessibleDescription("units must be a number");

  // The server's refusal of the rule (no such key-scoped rule) stands on the rule field.
  await units.fill("50");
  await rule.fill("no-such-rule");
  await form.getByRole("button", { name: "Grant units" }).click();
  await expect(rule).toHaveAttribute("aria-invalid", "true");
  await expect(units).not.toHaveAttribute("aria-invalid", "true");

  // Accepted: listed, the form emptied; then ended.
  await rule.fill("per-key");
  await form.getByRole("button", { name: "Grant units" }).click();
  const row = card.getByRole("row").filter({ hasText: "per-key" });
  await expect(row).toContainText("50");
  await expect(units).toHaveValue("");
  await row.getByRole("button", { name: "End" }).click();
  await expect(card.getByTestId("no-grants")).toBeVisible();
});
