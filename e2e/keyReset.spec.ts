/**
 * "Reset quota" on the key page: a key used up to 429 is reset after a confirmation (Cancel first
 * changes nothing), its quota meter is full again and the API admits it; the reset is in the audit log.
 */
import { attachScreenshot, expect, test } from "./support/fixtures";
import { echo, tenantWithKey, uniqueName } from "./support/adminApi";
import { logInAsAdmin } from "./support/session";

test("reset a used-up key's quota from its page, with confirmation", async ({ page, request, api }, testInfo) => {
  await logInAsAdmin(page);
  const { tenant, key } = await tenantWithKey(api, uniqueName("reset"), [
    { name: "per-key", algorithm: "sliding_log", limit: 2, windowMs: 3_600_000 },
  ]);
  expect([await echo(request, key.key), await echo(request, key.key), await echo(request, key.key)]).toEqual([
    200, 200, 429,
  ]);

  await page.goto(`/keys/${key.id}`);
  const meter = page.getByRole("meter", { name: "per-key remaining" });
  await expect(meter).toHaveAttribute("aria-valuenow", "0", { timeout: 10_000 });

  // Asked first; Cancel leaves the counters alone.
  await page.getByRole("button", { name: "Reset quota" }).click();
  const confirm = page.getByRole("group", { name: /^Reset every counter of/ });
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await confirm.getByRole("button", { name: "Cancel" }).click();
  expect(await echo(request, key.key)).toBe(429);

  await page.getByRole("button", { name: "Reset quota" }).click();
  await page
    .getByRole("group", { name: /^Reset every counter of/ })
    .getByRole("button", { name: "Reset quota" })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "Quota reset" })).toBeVisible();
  await expect(meter).toHaveAttribute("aria-valuenow", "2", { timeout: 10_000 });
  await attachScreenshot(page, testInfo, "key page after a reset");
  expect(await echo(request, key.key)).toBe(200);

  const [event] = await api.audit({ tenantId: tenant.id, limit: 1 });
  expect(event).toMatchObject({ action: "key.counters.reset", target: `key:${key.id}` });
});
