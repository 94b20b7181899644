/**
 * Identifier overrides on the tenant page: an admin adds overrides to an identifier rule (invalid
 * input gets inline errors from the shared schema and sends nothing), saves them, and sees them
 * listed as the API stores them; a viewer sees the list without any control.
 */
import { expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";
import { uniqueName } from "./support/adminApi";

const RULES = [{ name: "per-caller", scope: "identifier", limit: 10, windowMs: 60_000 }];

test("an admin edits an identifier rule's overrides with inline errors; they are saved as stored", async ({
  page,
  api,
}) => {
  const tenant = await api.createTenant(uniqueName("overrides"));
  expect((await api.call("PUT", `/api/admin/tenants/${tenant.id}/rules`, RULES)).status).toBe(200);
  let puts = 0;
  page.on("request", (request) => {
    if (request.method() === "PUT" && request.url().endsWith("/rules/per-caller/overrides")) puts += 1;
  });
  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}`);
  const card = page.getByRole("region", { name: "Identifier overrides" });
  await expect(card.getByText("No overrides: every identifier gets the rule's limit.")).toBeVisible();

  await card.getByRole("button", { name: "Edit overrides of per-caller" }).click();
  await card.getByRole("button", { name: "Add override" }).click();
  await card.getByRole("button", { name: "Add override" }).click();
  const first = card.getByRole("group", { name: "Override 1" });
  const second = card.getByRole("group", { name: "Override 2" });
  await first.getByLabel("Identifier").fill("a*b");
  await first.getByLabel("Limit").fill("0");
  await second.getByLabel("Identifier").fill("acme");
  await second.getByLabel("Limit").fill("7");
  await card.getByRole("button", { name: "Save overrides" }).click();
  await expect(first.getByLabel("Identifier")).toHaveAccessibleDescription(
    "identifier may hold * only at its end (a prefix: enterprise:*)",
  );
  await expect(first.getByLabel("Limit")).toHaveAccessibleDescription("limit must be at least 1");
  expect(puts).toBe(0);

  await first.getByLabel("Identifier").fill("enterprise:*");
  await first.getByLabel("Limit").fill("1000");
  await first.getByLabel("Window (ms)").fill("3600000");
  await card.getByRole("button", { name: "Save overrides" }).click();
  await expect(card.getByRole("status")).toContainText("Saved 2 overrides");
  expect(puts).toBe(1);
  const table = card.getByRole("table", { name: "Overrides of per-caller" });
  await expect(table.getByRole("row", { name: /enterprise:\*/ })).toContainText("3,600,000");
  await expect(table.getByRole("row", { name: /acme/ })).toContainText("7");
  expect((await api.call("GET", `/api/admin/tenants/${tenant.id}/rules/per-caller/overrides`)).body).toEqual({
    rule: "per-caller",
    overrides: [
      { identifier: "enterprise:*", limit: 1000, windowMs: 3_600_000 },
      { identifier: "acme", limit: 7 },
    ],
  });
});

test("a viewer sees the overrides but no control", async ({ viewerPage: page, api }) => {
  const tenant = await api.createTenant(uniqueName("overrides-viewer"));
  expect((await api.call("PUT", `/api/admin/tenants/${tenant.id}/rules`, RULES)).status).toBe(200);
  expect(
    (
      await api.call("PUT", `/api/admin/tenants/${tenant.id}/rules/per-caller/overrides`, [
        { identifier: "acme", limit: 3 },
      ])
    ).status,
  ).toBe(200);
  await page.goto(`/tenants/${tenant.id}`);
  const card = page.getByRole("region", { name: "Identifier overrides" });
  await expect(card.getByRole("row", { name: /acme/ })).toBeVisible();
  await expect(card.getByRole("button")).toHaveCount(0);
  await expect(card.getByRole("textbox")).toHaveCount(0);
});
