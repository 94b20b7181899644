import { echo, tenantWithKey, uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";

test("the overview names a limited client within 10 s of its first 429, with its rule, quota and next quota", async ({
  page,
  api,
  request,
}, testInfo) => {
  // A sliding log, not a fixed window: fixed windows are aligned to the epoch, so a burst in a
  // minute's last seconds found its window over by the time the row was read ("2 of 2 left").
  // The log's quota comes back 60 s after the burst's first request, whenever that is.
  const { tenant, key } = await tenantWithKey(api, uniqueName("limited"), [
    { name: "per-key", algorithm: "sliding_log", limit: 2, windowMs: 60_000 },
  ]);
  await logInAsAdmin(page);
  await page.goto("/");
  const limited = page.getByRole("region", { name: "Limited right now" });
  await expect(limited).toBeVisible();

  let status = 0;
  for (let i = 0; i < 5 && status !== 429; i++) status = await echo(request, key.key);
  expect(status).toBe(429);
  const firstRefusal = Date.now();

  // The page is already open: the row must appear by itself (live refresh), within 10 s of the 429.
  const row = limited.getByTestId("limited-row").filter({ hasText: key.name });
  await expect(row).toBeVisible({ timeout: 10_000 - (Date.now() - firstRefusal) });
  expect(Date.now() - firstRefusal).toBeLessThanOrEqual(10_000);
  await expect(row).toContainText(tenant.name);
  await expect(row).toContainText("per-key");
  await expect(row).toContainText("0 of 2 left");
  await expect(row.getByRole("meter")).toHaveAttribute("aria-valuenow", "0");
  await expect(row).toContainText(/in \d+(\.\d)? s/);
  await attachScreenshot(page, testInfo, "overview: limited right now");

  // The key's link opens its decisions filtered to refusals.
  await row.getByRole("link", { name: `${key.name}: refused requests` }).click();
  await expect(page).toHaveURL(new RegExp(`/keys/${key.id}\\?decisions=refused#recent-decisions$`));
  const decisions = page.getByRole("table", { name: "Recent decisions" });
  await expect(decisions.getByRole("row")).toHaveCount(2, { timeout: 10_000 }); // header + the one refusal
  await expect(decisions).toContainText("refused (429) by per-key");
  await expect(decisions).not.toContainText("allowed");
  await expect(page.getByRole("checkbox", { name: "Refused only" })).toBeChecked();
  await page.getByRole("checkbox", { name: "Refused only" }).uncheck();
  await expect(decisions.getByRole("row")).toHaveCount(4);
  await expect(page).not.toHaveURL(/decisions=refused/);
});

test("an identifier refused through the check API is limited right now too, and a key whose limit was raised is no longer refused", async ({
  page,
  api,
  request,
}) => {
  const { tenant, key } = await tenantWithKey(api, uniqueName("limited-id"), [
    { name: "per-key", limit: 100, windowMs: 60_000 },
    { name: "per-caller", scope: "identifier", limit: 1, windowMs: 60_000 },
  ]);
  const check = () =>
    request.post("/api/v1/check", {
      headers: { authorization: `Bearer ${key.key}` },
      data: { identifier: "user 42", rule: "per-caller" },
    });
  expect((await (await check()).json()).allowed).toBe(true);
  expect((await (await check()).json()).allowed).toBe(false);

  await logInAsAdmin(page);
  await page.goto("/");
  const row = page
    .getByRole("region", { name: "Limited right now" })
    .getByTestId("limited-row")
    .filter({ hasText: "user 42" });
  await expect(row).toBeVisible({ timeout: 10_000 });
  await expect(row).toContainText("identifier");
  await expect(row).toContainText("per-caller");
  await expect(row).toContainText("0 of 1 left");

  // Raise the limit: the quota now is read live, so the row shows the new figure (not a stale low).
  await api.putTenantRules(tenant.id, [
    { name: "per-key", limit: 100, windowMs: 60_000 },
    { name: "per-caller", scope: "identifier", limit: 50, windowMs: 60_000 },
  ]);
  await expect(row).toContainText(/(49|50) of 50 left/, { timeout: 10_000 });
  await expect(row).toContainText("available now");
});
