import { uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { MARKUP_NAME } from "./support/markup";
import { logInAsAdmin } from "./support/session";
import { ADMIN_EMAIL } from "./support/testEnv";

const rule = (limit: number) => ({ name: "per-key", algorithm: "sliding_window", limit, windowMs: 60_000 });

test("a rule change shows before and after, and an admin reverts it", async ({ page, api }, testInfo) => {
  const tenant = await api.createTenant(uniqueName("audit"));
  await api.putTenantRules(tenant.id, [rule(5)]);
  await api.putTenantRules(tenant.id, [rule(10)]);

  await logInAsAdmin(page);
  await page.goto(`/audit?tenantId=${tenant.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
  await expect(page.getByLabel("Tenant", { exact: true })).toHaveValue(tenant.id);

  const [change] = await api.audit({ tenantId: tenant.id, limit: 1 });
  const entries = page.getByRole("article");
  await expect(entries).toHaveCount(3); // tenant.create and two rules.replace
  // Headed in words (issue 31, point 8), not by the action code.
  const heading = `Rules of tenant ${tenant.name} replaced by admin API token`;
  const latest = page.getByRole("article", { name: `${heading} #${change!.id}`, exact: true });
  await expect(entries.first()).toHaveAccessibleName(`${heading} #${change!.id}`);
  await expect(latest.getByRole("heading", { level: 2 })).toHaveText(heading);
  await expect(latest).toContainText("admin API token");
  // A sentence with names, not ids and raw JSON (which stays one click away).
  await expect(latest.locator(".audit-sentence")).toHaveText(`Rules of ${tenant.name}: per-key: 5 → 10 per min`);
  await expect(latest.getByLabel("Before")).toContainText('"limit": 5');
  await expect(latest.getByLabel("After")).toContainText('"limit": 10');
  await expect(latest.locator(".diff-removed")).toContainText(['"limit": 5,']);
  await expect(latest.locator(".diff-added")).toContainText(['"limit": 10,']);
  // Creating a tenant is not a change that can be reverted: no button offers it.
  await expect(entries.last().getByRole("button", { name: "Revert" })).toHaveCount(0);
  await attachScreenshot(page, testInfo, "audit log");

  await latest.getByRole("button", { name: "Revert" }).click();
  // The confirmation states the effect on the rules as they are now.
  await expect(latest.getByTestId("revert-effect")).toHaveText(
    `This sets the rules of ${tenant.name} back: per-key: 10 → 5 per min. Revert change #${change!.id}?`,
  );
  await latest.getByRole("button", { name: "Yes, revert" }).click();
  await expect(latest.getByRole("status")).toContainText("Reverted. The revert is recorded as change #");
  expect((await api.getTenantRules(tenant.id)).map((r) => r.limit)).toEqual([5]);

  // The revert is itself a change, listed first (the list is live).
  await expect(entries).toHaveCount(4);
  await expect(entries.first().getByRole("heading", { level: 2 })).toHaveText(
    `Rules of tenant ${tenant.name} reverted by ${ADMIN_EMAIL}`,
  );
  await expect(entries.first().locator(".audit-sentence")).toHaveText(
    `Reverted change #${change!.id}. Rules of ${tenant.name}: per-key: 10 → 5 per min`,
  );
  await expect(entries.first().getByLabel("After")).toContainText('"limit": 5');
});

test("a revert the current state does not allow shows the server's reason; a revocation offers no revert", async ({
  page,
  api,
  consoleErrors,
}) => {
  consoleErrors.allow(/Failed to load resource: the server responded with a status of 409/);
  const tenant = await api.createTenant(uniqueName("audit-409"));
  const key = await api.createKey(tenant.id, uniqueName("key"));
  const overrides = await api.call("PUT", `/api/admin/keys/${key.id}/rules`, [rule(7)]);
  expect(overrides.status).toBe(200);
  const revoked = await api.call("DELETE", `/api/admin/keys/${key.id}`);
  expect(revoked.status).toBe(204);

  await logInAsAdmin(page);
  await page.goto(`/audit?tenantId=${tenant.id}`);
  const [revocationEvent, overridesEvent] = await api.audit({ tenantId: tenant.id, limit: 2 });
  expect(revocationEvent!.action).toBe("key.revoke");
  expect(overridesEvent!.action).toBe("rules.replace");
  // A revoked key stays revoked (its secret may have leaked): its revocation has no Revert button.
  const revocation = page.getByRole("article", { name: new RegExp(`^Key .* revoked by .* #${revocationEvent!.id}$`) });
  await expect(revocation).toHaveCount(1);
  await expect(revocation.getByRole("button", { name: "Revert" })).toHaveCount(0);
  // The key's overrides cannot change any more: the server says why.
  const change = page.getByRole("article", {
    name: new RegExp(`^Overrides of key .* replaced by .* #${overridesEvent!.id}$`),
  });
  await change.getByRole("button", { name: "Revert" }).click();
  await change.getByRole("button", { name: "Yes, revert" }).click();
  await expect(change.getByRole("alert")).toHaveText(
    `Could not revert: API key ${key.id} is revoked; its rules can no longer change.`,
  );
});

test("older changes load page by page", async ({ page, api }) => {
  const tenant = await api.createTenant(uniqueName("audit-pages"));
  // tenant.create plus 51 rule changes: two pages of 50.
  for (let limit = 1; limit <= 51; limit++) await api.putTenantRules(tenant.id, [rule(limit)]);

  await logInAsAdmin(page);
  await page.goto(`/audit?tenantId=${tenant.id}`);
  const entries = page.getByRole("article");
  await expect(entries).toHaveCount(50);
  await page.getByRole("button", { name: "Older changes" }).click();
  await expect(entries).toHaveCount(52);
  await expect(entries.last().getByRole("heading", { level: 2 })).toHaveText(/^Tenant .* created by /);
  await expect(page.getByRole("button", { name: "Older changes" })).toHaveCount(0);
});

test("a tenant named like markup is shown as text in the audit log", async ({ page, api }, testInfo) => {
  const tenant = await api.ensureTenant(MARKUP_NAME);
  await api.putTenantRules(tenant.id, [rule(7)]);

  await logInAsAdmin(page);
  await page.goto(`/audit?tenantId=${tenant.id}`);
  await expect(page.getByLabel("Tenant", { exact: true }).locator("option:checked")).toHaveText(MARKUP_NAME);
  const latest = page.getByRole("article").first();
  await expect(latest.getByRole("link", { name: MARKUP_NAME })).toHaveAttribute("href", `/tenants/${tenant.id}`);
  await expect(page.locator("img")).toHaveCount(0);
  await attachScreenshot(page, testInfo, "audit log of a markup-named tenant");
});

test("a revert that would delete every rule of a tenant says so plainly; filters by operator, action and date; CSV export", async ({
  page,
  api,
}, testInfo) => {
  const tenant = await api.createTenant(uniqueName("audit-seed"));
  const seven = ["a", "b", "c", "d", "e", "f", "g"].map((name) => ({ name, limit: 10, windowMs: 60_000 }));
  await api.putTenantRules(tenant.id, seven);
  const [seeded] = await api.audit({ tenantId: tenant.id, limit: 1 });

  await logInAsAdmin(page);
  await page.goto(`/audit?tenantId=${tenant.id}`);
  await page.getByLabel("Action").selectOption("rules.");
  await expect(page).toHaveURL(/action=rules\./);
  const entries = page.getByRole("article");
  await expect(entries).toHaveCount(1);
  const entry = entries.first();
  await expect(entry.locator(".audit-sentence")).toContainText(
    `Rules of ${tenant.name}: added a: 10 per min; added b: 10 per min`,
  );

  await entry.getByRole("button", { name: "Revert" }).click();
  await expect(entry.getByTestId("revert-effect")).toHaveText(
    `This removes all 7 rules of ${tenant.name}: no request of ${tenant.name} will be limited. Revert change #${seeded!.id}?`,
  );
  await expect(entry.locator(".confirm-warning")).toBeVisible();
  await attachScreenshot(page, testInfo, "audit: a revert that removes every rule");
  await entry.getByRole("button", { name: "Cancel" }).click();
  expect(await api.getTenantRules(tenant.id)).toHaveLength(7);

  // Operator and date filters, in the URL.
  await page.getByLabel("Operator").selectOption("token");
  await expect(entries).toHaveCount(1);
  await page.getByLabel("Action").selectOption("key.");
  await expect(page.getByText("No change matches these filters.")).toBeVisible();
  await page.getByLabel("Action").selectOption("");
  await expect(entries).toHaveCount(2); // tenant.create and the rules
  await page.getByLabel("From").fill("2099-01-01");
  await expect(page.getByText("No change matches these filters.")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page).toHaveURL(/\/audit$/);

  // CSV export of the filtered log.
  await page.goto(`/audit?tenantId=${tenant.id}`);
  await expect(entries).toHaveCount(2);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Export CSV" }).click(),
  ]);
  const csv = await (
    await download.createReadStream()
  )
    .toArray()
    .then((chunks) => Buffer.concat(chunks).toString("utf8"));
  const lines = csv.trim().split("\r\n");
  expect(lines[0]).toBe('"id","time","operator","action","target","tenant","change","before","after"');
  expect(lines).toHaveLength(3);
  expect(lines[1]).toContain(
    `"rules.replace","tenant:${tenant.id}","${tenant.name}","Rules of ${tenant.name}: added a: 10 per min;`,
  );
  expect(lines[2]).toContain(`"tenant.create"`);
});
