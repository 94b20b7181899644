/**
 * Issue 31, "the dashboard at 3 a.m.", as an operator on call walks it:
 * - a limited key gets a raised limit from its key page ("Override" on the effective rule,
 *   prefilled), the overview then reads the quota of the override in force, and the key page says
 *   when the 429s moved to the next rule (points 1, 2);
 * - the numbers agree: a streak "since" per row, hot keys' last refusal, one limit format (point 6);
 * - the charts: a 1-minute range, the current rate, change markers from the audit log (point 5);
 * - an upstream outage: a 502 is not listed as plain "allowed" on the key page (point 4).
 */
import { echo, tenantWithKey, uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";

test("override a limited key's rule from its key page: the overview reads the override, and the 429s that moved to the next rule are named", async ({
  page,
  api,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const { tenant, key } = await tenantWithKey(api, uniqueName("night"), [
    { name: "per-key", algorithm: "sliding_log", limit: 3, windowMs: 60_000 },
    // Five tokens, one back a minute: after the override this is what refuses.
    { name: "burst", algorithm: "token_bucket", limit: 1, windowMs: 60_000, burst: 5 },
  ]);
  const statuses: number[] = [];
  for (let i = 0; i < 5; i++) statuses.push(await echo(request, key.key));
  expect(statuses).toEqual([200, 200, 200, 429, 429]);

  await logInAsAdmin(page);
  await page.goto("/");
  const row = page.getByRole("region", { name: "Limited right now" }).getByTestId("limited-row").filter({
    hasText: key.name,
  });
  await expect(row).toContainText("0 of 3 left", { timeout: 10_000 });
  // Point 6: the refusals of the streak, and since when (no column header that resets each minute).
  await expect(row).toContainText(/2 since \d{2}:\d{2}/);
  await attachScreenshot(page, testInfo, "overview before the override");

  // Point 2: Override, prefilled from the rule in force; only limit and window.
  await page.goto(`/keys/${key.id}`);
  const rules = page.getByRole("region", { name: "Effective rules" });
  await expect(rules.getByRole("table", { name: "Effective rules" })).toContainText("3 per min");
  await rules.getByRole("button", { name: "Override per-key" }).click();
  const form = rules.getByRole("form", { name: "Override per-key for this key" });
  await expect(form.getByLabel("Limit")).toHaveValue("3");
  await expect(form.getByLabel("Window")).toHaveValue("1 min");
  await form.getByLabel("Limit").fill("2000");
  await form.getByRole("button", { name: "Save override" }).click();
  await expect(rules.getByRole("status")).toContainText("per-key is now 2,000 per min for this key");
  await expect(rules.getByRole("table", { name: "Effective rules" })).toContainText("key override");
  await expect(rules.getByRole("button", { name: "Change override per-key" })).toBeVisible();

  // Point 1: the overview's row reads the override's quota, not the replaced rule's.
  await page.goto("/");
  await expect(row).toContainText("of 2,000 left", { timeout: 10_000 });
  await expect(row).not.toContainText("0 of 3 left");
  await attachScreenshot(page, testInfo, "overview after the override");

  // The next rule now refuses: the key page says the 429s moved.
  const after: number[] = [];
  for (let i = 0; i < 4; i++) after.push(await echo(request, key.key));
  expect(after).toEqual([200, 200, 429, 429]);
  await page.goto(`/keys/${key.id}`);
  await expect(page.getByTestId("refusal-shift")).toContainText(
    "refused by burst, no longer by the overridden per-key",
    { timeout: 10_000 },
  );
  await attachScreenshot(page, testInfo, "key page: the 429s moved to burst");

  // Point 6: hot keys say when the key was last refused.
  await page.goto(`/tenants/${tenant.id}`);
  await expect(
    page.getByRole("region", { name: "Hot callers" }).getByTestId("hot-key-last-refused").first(),
  ).toContainText(/last \d{2}:\d{2}/, { timeout: 10_000 });
});

test("charts: a 1-minute range, the current rate, and a marker for each configuration change", async ({
  page,
  api,
  request,
}, testInfo) => {
  const { tenant, key } = await tenantWithKey(api, uniqueName("charts-now"), [
    { name: "per-key", limit: 100, windowMs: 60_000 },
  ]);
  for (let i = 0; i < 3; i++) await echo(request, key.key);
  // A change inside the window: the rules saved again with another limit.
  await api.putTenantRules(tenant.id, [{ name: "per-key", limit: 200, windowMs: 60_000 }]);

  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}?range=1m`);
  await expect(page.getByRole("button", { name: "1 min", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("range-shown")).toContainText("the last minute");
  const traffic = page.getByRole("region", { name: "Requests per second, this tenant" });
  await expect(traffic.getByTestId("traffic-now")).toContainText(/Now: \d+(\.\d+)? \/s allowed/, { timeout: 15_000 });
  await expect(traffic.locator(".change-marker").first()).toBeAttached({ timeout: 15_000 });
  await expect(traffic.getByRole("img")).toHaveAttribute("aria-label", /configuration changes? marked/);
  await expect(traffic.getByTestId("traffic-totals")).toContainText(
    "more would be refused if the shadow rules were enforced",
  );
  await attachScreenshot(page, testInfo, "tenant charts: 1-minute range, current rate, change markers");
});

test("a request the upstream failed is listed as answered 502 on the key page, not as plain allowed", async ({
  page,
  api,
  request,
}, testInfo) => {
  const { tenant, key } = await tenantWithKey(api, uniqueName("outage"), [
    { name: "per-key", limit: 100, windowMs: 60_000 },
  ]);
  // Nothing listens on port 1: the gateway answers 502.
  const set = await api.call("PUT", `/api/admin/tenants/${tenant.id}/upstream`, {
    url: "http://127.0.0.1:1",
    timeoutMs: 1000,
  });
  expect(set.status).toBe(200);
  const response = await request.get("/api/v1/orders/42", { headers: { authorization: `Bearer ${key.key}` } });
  expect(response.status()).toBe(502);

  await logInAsAdmin(page);
  await page.goto(`/keys/${key.id}`);
  const decisions = page.getByRole("table", { name: "Recent decisions" });
  await expect(decisions).toContainText("allowed, answered 502 (upstream unreachable)", { timeout: 10_000 });
  await attachScreenshot(page, testInfo, "key page: a 502 from the upstream");

  // The tenant page: the upstream's health as the gateway saw it, the URL clients call, and a test.
  await page.goto(`/tenants/${tenant.id}`);
  const card = page.getByRole("region", { name: "Gateway upstream" });
  await expect(card.getByTestId("upstream-health")).toContainText("/api/v1/…");
  await expect(card.getByTestId("upstream-health")).toContainText("1 × 502 (unreachable)", { timeout: 10_000 });
  await card.getByRole("button", { name: "Test connection" }).click();
  await expect(card.getByTestId("upstream-test")).toContainText("Not reachable: connection refused");
  await attachScreenshot(page, testInfo, "tenant page: upstream health and test");
});
