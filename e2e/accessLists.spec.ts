/**
 * The access lists on a tenant's page: an admin's invalid entries are refused under their list with
 * their line numbers, by the API's own schema, before anything is stored; saved lists are stored
 * canonical, audited and in force (a denied key gets 403). A viewer sees the lists but no form.
 */
import { attachScreenshot, expect, test } from "./support/fixtures";
import { echo, uniqueName } from "./support/adminApi";
import { logInAsAdmin } from "./support/session";

test("an admin edits the access lists: invalid entries are refused inline per line, saved lists are in force", async ({
  page,
  api,
  request,
}, testInfo) => {
  const tenant = await api.createTenant(uniqueName("access-tenant"));
  const key = await api.createKey(tenant.id, uniqueName("key"));
  expect(await echo(request, key.key)).toBe(200);
  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}`);
  const card = page.getByRole("region", { name: "Access lists" });
  const allow = card.getByLabel("Allow");
  const deny = card.getByLabel("Deny");
  await expect(allow).toHaveValue("");

  await allow.fill("10.0.0.0/8\n\n10.0.0.300\n2001:db8::1/32");
  await deny.fill(`key:${key.id}`);
  await card.getByRole("button", { name: "Save access lists" }).click();
  await expect(allow).toHaveAttribute("aria-invalid", "true");
  await expect(
    card.getByText('Line 3: "10.0.0.300" is not an IPv4 or IPv6 address, a CIDR block or key:<keyId>'),
  ).toBeVisible();
  await expect(card.getByText('Line 4: "2001:db8::1/32" has host bits set: the block is 2001:db8::/32')).toBeVisible();
  await expect(deny).not.toHaveAttribute("aria-invalid", "true");
  expect((await api.call("GET", `/api/admin/tenants/${tenant.id}/access`)).body).toEqual({ allow: [], deny: [] });
  await attachScreenshot(page, testInfo, "access lists refused inline");

  await allow.fill("10.0.0.0/8\n\n::ffff:192.0.2.1\n2001:DB8::/32");
  await card.getByRole("button", { name: "Save access lists" }).click();
  await expect(card.getByRole("status")).toContainText("Saved");
  expect((await api.call("GET", `/api/admin/tenants/${tenant.id}/access`)).body).toEqual({
    allow: ["10.0.0.0/8", "192.0.2.1", "2001:db8::/32"],
    deny: [`key:${key.id}`],
  });
  await expect(allow).toHaveValue("10.0.0.0/8\n192.0.2.1\n2001:db8::/32");
  expect(await echo(request, key.key)).toBe(403);
  const actions = (await api.audit({ tenantId: tenant.id })).map((e) => e.action);
  expect(actions[0]).toBe("access.replace");

  await page.reload();
  await expect(page.getByRole("region", { name: "Access lists" }).getByLabel("Deny")).toHaveValue(`key:${key.id}`);
});

test("a viewer sees the access lists but cannot change them", async ({ viewerPage: page, api }) => {
  const tenant = await api.createTenant(uniqueName("access-viewer"));
  expect(
    (
      await api.call("PUT", `/api/admin/tenants/${tenant.id}/access`, {
        allow: ["192.0.2.0/24"],
        deny: ["203.0.113.7"],
      })
    ).status,
  ).toBe(200);
  await page.goto(`/tenants/${tenant.id}`);
  const card = page.getByRole("region", { name: "Access lists" });
  await expect(card.getByRole("list", { name: "Allow list" })).toHaveText("192.0.2.0/24");
  await expect(card.getByRole("list", { name: "Deny list" })).toHaveText("203.0.113.7");
  await expect(card.getByRole("textbox")).toHaveCount(0);
  await expect(card.getByRole("button")).toHaveCount(0);
});
