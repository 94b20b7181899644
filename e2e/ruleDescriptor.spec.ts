/**
 * The rule editor's descriptor scope (Envoy's rate limit service): the entries' editor with the
 * Envoy route config redrawn as they change, an empty key refused inline in the form's words
 * (nothing sent), the rule saved as match.descriptor (admin API GET) and shown back in the list;
 * the tenant's traffic then has a "Hot descriptors" table (no Envoy call yet: its empty line).
 */
import { expect, test } from "./support/fixtures";
import { newRuleForm } from "./support/newRuleForm";

test("a descriptor rule is edited with its Envoy config beside it, checked inline and saved", async ({ page, api }) => {
  const { tenant, form, puts } = await newRuleForm(page, api, "descriptor", "login-per-client");
  await form.getByLabel("Scope").selectOption("descriptor");
  await form.getByLabel("Limit").fill("5");

  // Offered with one entry, counted per value; the HTTP-only fields are gone.
  const example = form.getByTestId("envoy-route-example");
  await expect(form.getByLabel("Descriptor entry 1 key")).toHaveValue("remote_address");
  await expect(example).toHaveText("rate_limits:\n  - actions:\n      - remote_address: {}");
  await expect(form.getByLabel("Path", { exact: true })).toHaveCount(0);
  await expect(form.getByRole("checkbox", { name: "GET" })).toHaveCount(0);

  // A second entry with an empty key: the example waits for it, the save is refused inline.
  await form.getByRole("button", { name: "Add entry" }).click();
  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(form.getByRole("alert")).toHaveText("Nothing was saved: fix the fields marked below.");
  await expect(form.getByRole("group", { name: "Envoy descriptor" })).toHaveAccessibleDescription(
    /Envoy descriptor: key must not be empty/,
  );
  expect(puts()).toBe(0);

  // Typed entries redraw the example live: path=/login first, then the address per value.
  await form.getByLabel("Descriptor entry 1 key").fill("path");
  await form.getByLabel("Descriptor entry 1 value").fill("/login");
  await form.getByLabel("Descriptor entry 2 key").fill("remote_address");
  await expect(example).toHaveText(
    [
      "rate_limits:",
      "  - actions:",
      "      - generic_key: { descriptor_key: path, descriptor_value: /login }",
      "      - remote_address: {}",
    ].join("\n"),
  );
  await expect(form.getByTestId("descriptor-sent")).toHaveText("path=/login, remote_address=<remote_address>");

  await form.getByRole("button", { name: "Save rules" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved 1 rule" })).toBeVisible();
  expect(puts()).toBe(1);
  expect(await api.getTenantRules(tenant.id)).toEqual([
    expect.objectContaining({
      name: "login-per-client",
      scope: "descriptor",
      limit: 5,
      match: { descriptor: [{ key: "path", value: "/login" }, { key: "remote_address" }] },
    }),
  ]);
  const list = page.getByRole("table", { name: "Rules" });
  await expect(list.getByRole("row", { name: /login-per-client/ })).toContainText("Envoy: path=/login, remote_address");

  await expect(page.getByRole("region", { name: "Hot descriptors" })).toContainText(
    "No Envoy rate limit call met a descriptor rule",
  );
});
