/**
 * The monitoring charts: the range (presets and custom) lives in the URL and survives a reload,
 * series toggle off and on, the partial last bucket is marked, Pause stops the live updates, and
 * every chart is an image with a summary for screen readers.
 */
import { echo, tenantWithKey, uniqueName } from "./support/adminApi";
import { expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";

const RULES = [
  { name: "per-key", algorithm: "fixed_window", limit: 2, windowMs: 3_600_000 },
  { name: "trial", algorithm: "fixed_window", limit: 1, windowMs: 3_600_000, mode: "shadow" },
];

test("a preset and a custom range are kept in the URL and survive a reload", async ({ page }) => {
  await logInAsAdmin(page);
  await page.goto("/");
  const shown = page.getByTestId("range-shown");
  await expect(shown).toHaveText("Showing the last 5 minutes, live.");

  await page.getByRole("button", { name: "6 hours" }).click();
  await expect(page).toHaveURL(/[?&]range=6h\b/);
  await page.reload();
  await expect(page.getByRole("button", { name: "6 hours" })).toHaveAttribute("aria-pressed", "true");
  await expect(shown).toHaveText("Showing the last 6 hours, live.");

  // A custom window: the last two hours, to the minute, in the browser's time zone.
  await page.getByRole("button", { name: "Custom…" }).click();
  const form = page.getByRole("form", { name: "Custom range" });
  const { from, to } = await page.evaluate(() => {
    const pad = (n: number) => String(n).padStart(2, "0");
    const local = (d: Date) =>
      `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    const end = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
    return { from: local(new Date(end.getTime() - 2 * 3_600_000)), to: local(end) };
  });
  // A reversed window is refused in words, on the form.
  await form.getByLabel("From (your local time)").fill(to);
  await form.getByLabel("To").fill(from);
  await form.getByRole("button", { name: "Show range" }).click();
  await expect(form.getByRole("alert")).toHaveText("The end must be after the start.");

  await form.getByLabel("From (your local time)").fill(from);
  await form.getByLabel("To").fill(to);
  await form.getByRole("button", { name: "Show range" }).click();
  await expect(page).toHaveURL(/[?&]from=[^&]+&to=/);
  await expect(page).not.toHaveURL(/range=/);
  const customText = await shown.textContent();
  expect(customText).toMatch(/^Showing \d{1,2} \w{3} \d{4}, \d{2}:\d{2} to \d{1,2} \w{3} \d{4}, \d{2}:\d{2}\.$/);

  await page.reload();
  await expect(shown).toHaveText(customText!);
  await expect(page.getByRole("button", { name: "Custom…" })).toHaveAttribute("aria-pressed", "true");
  for (const preset of ["1 min", "5 min", "15 min", "1 hour", "6 hours", "24 hours"]) {
    await expect(page.getByRole("button", { name: preset, exact: true })).toHaveAttribute("aria-pressed", "false");
  }
});

test("toggling a series hides it; the tooltip is sorted and stays inside the plot; the summary and the partial bucket are on the chart", async ({
  page,
  api,
  request,
}) => {
  // Waits for the requests' 5 s bucket to complete before it is drawn.
  test.setTimeout(60_000);
  const { tenant, key } = await tenantWithKey(api, uniqueName("charts"), RULES);
  for (let i = 0; i < 5; i++) await echo(request, key.key);

  await logInAsAdmin(page);
  // The last minute in 5 s buckets: the requests' bucket is complete (and drawn) within seconds.
  await page.goto(`/tenants/${tenant.id}?range=1m`);
  const card = page.getByRole("region", { name: "429 rate per rule" });
  const toggles = card.getByRole("group", { name: "Series of 429 rate per rule" });
  await expect(toggles.getByRole("button")).toHaveCount(2, { timeout: 15_000 });
  const chart = card.getByRole("img");
  // A summary of every line for screen readers (the plot itself is an image).
  await expect(chart).toHaveAttribute("aria-label", /^429 rate per rule, the last minute: /);
  await expect(chart).toHaveAttribute("aria-label", /per-key \d+(\.\d)? %/);
  await expect(chart).toHaveAttribute("aria-label", /trial \(shadow\) \d+(\.\d)? %/);
  const lines = card.locator(".recharts-line-curve");
  await expect(lines).toHaveCount(2);
  // The last bucket is still filling: it is shaded and says so.
  await expect(card.locator(".recharts-reference-area")).toHaveCount(1);
  await expect(card.locator("svg").getByText("partial", { exact: true })).toBeVisible();

  // The tooltip: the series at that time, highest first, inside the plot (it never covers the card).
  // On the bucket with the requests (a dot: buckets without requests are gaps), once complete.
  await expect(card.locator(".recharts-line-dots circle").first()).toBeVisible({ timeout: 15_000 });
  // Paused: over the last minute the axis moves with every refresh, which would move the tooltip away.
  await page.getByRole("button", { name: "Pause" }).click();
  await chart.scrollIntoViewIfNeeded();
  const frame = await chart.boundingBox();
  const dot = await card.locator(".recharts-line-dots circle").last().boundingBox();
  await page.mouse.move(dot!.x + dot!.width / 2, frame!.y + frame!.height / 2, { steps: 5 });
  const tooltip = card.locator(".chart-tooltip");
  await expect(tooltip).toBeVisible();
  await expect(tooltip.locator("li")).toHaveCount(2);
  const values = (await tooltip.locator("li .num").allTextContents()).map((text) => parseFloat(text));
  expect(values).toEqual([...values].sort((a, b) => b - a));
  const box = await tooltip.boundingBox();
  expect(box!.y).toBeGreaterThanOrEqual(frame!.y - 1);
  expect(box!.y + box!.height).toBeLessThanOrEqual(frame!.y + frame!.height + 1);
  await page.mouse.move(0, 0);
  await page.getByRole("button", { name: "Pause" }).click(); // live again

  const trial = toggles.getByRole("button", { name: "trial (shadow)" });
  await expect(trial).toHaveAttribute("aria-pressed", "true");
  await trial.click();
  await expect(trial).toHaveAttribute("aria-pressed", "false");
  await expect(lines).toHaveCount(1);
  // Still hidden after the next live refresh.
  await page.waitForResponse((r) => r.url().includes("/api/admin/monitoring/refusal-rate"));
  await expect(lines).toHaveCount(1);
  await trial.click();
  await expect(lines).toHaveCount(2);

  // Traffic series toggle the same way: refusals (red) off.
  const traffic = page.getByRole("region", { name: "Requests per second, this tenant" });
  await expect(traffic.getByRole("img")).toHaveAttribute("aria-label", /the last minute: 2 allowed, 3 refused/, {
    timeout: 15_000,
  });
  await expect(traffic.locator(".recharts-area")).toHaveCount(2);
  await traffic.getByRole("button", { name: "Refused (429)" }).click();
  await expect(traffic.locator(".recharts-area")).toHaveCount(1);
});

test("Pause stops the live updates until Resume", async ({ page, api, request }) => {
  const { tenant, key } = await tenantWithKey(api, uniqueName("pause"), RULES);
  await echo(request, key.key);
  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}`);
  const totals = page.getByRole("region", { name: "Requests per second, this tenant" }).getByTestId("traffic-totals");
  await expect(totals).toContainText("1 allowed", { timeout: 15_000 });

  const pause = page.getByRole("button", { name: "Pause" });
  await pause.click();
  await expect(pause).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("range-shown")).toContainText(/paused at \d{2}:\d{2}:\d{2}/);
  const polls: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/admin/monitoring/traffic")) polls.push(r.url());
  });
  await echo(request, key.key);
  // Three polling intervals: a live view would have asked at least once.
  await page.waitForTimeout(6_000);
  expect(polls).toEqual([]);
  await expect(totals).toContainText("1 allowed");

  await pause.click();
  await expect(pause).toHaveAttribute("aria-pressed", "false");
  await expect(totals).toContainText("2 allowed", { timeout: 15_000 });
});
