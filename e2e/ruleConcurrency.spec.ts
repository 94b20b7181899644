/**
 * The rule editor offers the `concurrency` algorithm: picked in the algorithm select, explained in
 * the editor's guide, its fields read for it (limit = requests in flight, window = lease length), a
 * combination it cannot have refused inline in the form's words (nothing sent), and saved as such.
 */
import { expect, test } from "./support/fixtures";
import { newRuleForm } from "./support/newRuleForm";

test("a concurrency rule is picked, explained, refused inline with the local fail mode, and saved", async ({
  page,
  api,
}) => {
  const { tenant, form, puts } = await newRuleForm(page, api, "concurrency", "in-flight");
  await form.getByLabel("Algorithm").selectOption({ label: "Concurrency" });
  await expect(form.getByLabel("Algorithm")).toHaveAccessibleDescription(/requests in flight at once; gateway/);
  await expect(form.getByLabel("Limit")).toHaveAccessibleDescription(/requests in flight at once/);
  await page.getByText("How the algorithms differ").click();
  await expect(page.getByText(/Not a rate: at most limit requests of a client in flight at once/)).toBeVisible();

  await form.getByLabel("Limit").fill("3");
  await form.getByLabel("Fail mode").selectOption("local");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(form.getByLabel("Fail mode")).toHaveAccessibleDescription(
    /Fail mode local is not available for concurrency/,
  );
  expect(puts()).toBe(0);

  await form.getByLabel("Fail mode").selectOption("closed");
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toBeVisible();
  expect(puts()).toBe(1);
  expect(await api.getTenantRules(tenant.id)).toEqual([
    expect.objectContaining({ name: "in-flight", algorithm: "concurrency", limit: 3, cost: 1, failMode: "closed" }),
  ]);
});
