/**
 * API tokens in the browser: an admin creates one (its secret shown once, with copy), the secret
 * works on the admin API as a bearer token, and once revoked in the page it is a 401.
 */
import { uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";

test("an admin creates an API token, sees its secret once, and revokes it", async ({
  page,
  api,
  request,
}, testInfo) => {
  const name = uniqueName("ci");
  try {
    await logInAsAdmin(page);
    await page.goto("/operators");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API tokens" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "API tokens" })).toBeVisible();

    const form = page.getByRole("region", { name: "Create an API token" });
    await form.getByLabel("Name").fill("has space");
    await form.getByRole("button", { name: "Create token" }).click();
    // The form's own check: the same schema (and message) as the admin API.
    await expect(form.getByText("name must be 1-64 letters, digits, '.', '_' or '-'")).toBeVisible();

    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Role").selectOption("viewer");
    await form.getByRole("button", { name: "Create token" }).click();
    const secret = form.getByLabel("The new token");
    await expect(secret).toHaveValue(/^sluice_tok_[0-9A-Za-z]{32}$/);
    await expect(form.getByRole("button", { name: "Copy token" })).toBeVisible();
    const token = await secret.inputValue();
    await attachScreenshot(page, testInfo, "api-token-created");

    const asToken = { headers: { authorization: `Bearer ${token}` } };
    expect((await request.get("/api/admin/tenants", asToken)).status()).toBe(200);
    expect((await request.post("/api/admin/tenants", { ...asToken, data: { name: uniqueName("no") } })).status()).toBe(
      403,
    );

    await form.getByRole("button", { name: "I have stored it" }).click();
    await expect(secret).toHaveCount(0);

    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row.getByText("viewer")).toBeVisible();
    await row.getByRole("button", { name: "Revoke" }).click();
    await row.getByRole("button", { name: "Yes, revoke" }).click();
    await expect(row).toHaveCount(0);
    expect((await request.get("/api/admin/tenants", asToken)).status()).toBe(401);
  } finally {
    for (const t of (await api.listTokens()).filter((t) => t.name === name)) await api.deleteToken(t.id);
  }
});
