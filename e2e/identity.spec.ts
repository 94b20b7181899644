/**
 * Hosts and callers on a tenant's page: an admin's invalid host is refused on its field by the
 * API's own schema (nothing stored), a host of another tenant is the API's 409 above the form, and
 * saved settings are what the API answers, summed up in one sentence of what a client must send,
 * and audited. A viewer sees them but no form.
 */
import { attachScreenshot, expect, test } from "./support/fixtures";
import { uniqueName } from "./support/adminApi";
import { logInAsAdmin } from "./support/session";

const hostOf = (label: string) =>
  `${uniqueName(label)
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, "-")}.example.test`;

test("an admin sets a tenant's hosts and callers; invalid and taken hosts are refused", async ({
  page,
  api,
  consoleErrors,
}, testInfo) => {
  // The browser logs the API's 409 for the taken host: expected here.
  consoleErrors.allow(/409 \(Conflict\)/);
  const tenant = await api.createTenant(uniqueName("identity-tenant"));
  const other = await api.createTenant(uniqueName("identity-other"));
  const taken = hostOf("taken");
  expect((await api.call("PUT", `/api/admin/tenants/${other.id}/identity`, { hosts: [taken] })).status).toBe(200);
  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}`);
  const card = page.getByRole("region", { name: "Hosts and callers" });
  await expect(card.getByTestId("identity-summary")).toContainText("No host");

  const hosts = card.getByLabel("Hosts (one per line)");
  await hosts.fill("api.example.test:8443");
  await card.getByRole("button", { name: "Save hosts and callers" }).click();
  await expect(hosts).toHaveAttribute("aria-invalid", "true");
  await expect(card.getByText(/must not carry a port/)).toBeVisible();
  expect((await api.call("GET", `/api/admin/tenants/${tenant.id}/identity`)).body).toMatchObject({ hosts: [] });

  await hosts.fill(taken);
  await card.getByRole("button", { name: "Save hosts and callers" }).click();
  await expect(card.getByText(`The host ${taken} belongs to another tenant`)).toBeVisible();

  const own = hostOf("own");
  await hosts.fill(own.toUpperCase());
  await card.getByLabel("Admit callers without a credential").check();
  await card.getByLabel("JWT callers").selectOption("url");
  await card.getByLabel("Issuer (iss), optional").fill("https://id.example.test/");
  await card.getByLabel("JWKS URL").fill("http://169.254.169.254/jwks");
  await card.getByRole("button", { name: "Save hosts and callers" }).click();
  await expect(card.getByText(/must not be link-local/)).toBeVisible();
  await card.getByLabel("JWKS URL").fill("https://id.example.test/.well-known/jwks.json");
  await card.getByRole("button", { name: "Save hosts and callers" }).click();
  await expect(card.getByRole("status")).toContainText("Saved");
  await expect(card.getByTestId("identity-summary")).toHaveText(
    `Clients of ${own} send a JWT issued by https://id.example.test/ in Authorization: Bearer or a Sluice API key of this tenant (Authorization: Bearer or x-api-key), or nothing at all (then they are limited per IP).`,
  );
  expect((await api.call("GET", `/api/admin/tenants/${tenant.id}/identity`)).body).toEqual({
    hosts: [own],
    apiKeys: true,
    jwt: {
      issuer: "https://id.example.test/",
      jwksUrl: "https://id.example.test/.well-known/jwks.json",
      subjectClaim: "sub",
    },
    anonymous: true,
  });
  expect((await api.audit({ tenantId: tenant.id }))[0]!.action).toBe("identity.replace");
  await attachScreenshot(page, testInfo, "hosts and callers saved");
});

test("a viewer sees the hosts and callers but cannot change them", async ({ viewerPage: page, api }) => {
  const tenant = await api.createTenant(uniqueName("identity-viewer"));
  const host = hostOf("viewer");
  expect(
    (await api.call("PUT", `/api/admin/tenants/${tenant.id}/identity`, { hosts: [host], anonymous: true })).status,
  ).toBe(200);
  await page.goto(`/tenants/${tenant.id}`);
  const card = page.getByRole("region", { name: "Hosts and callers" });
  await expect(card.getByRole("definition").first()).toHaveText(host);
  await expect(card.getByRole("button", { name: "Save hosts and callers" })).toHaveCount(0);
});
