/**
 * The rule simulator: real traffic recorded, a stricter candidate replayed against it in the
 * browser, the newly refused key and both series shown; then the candidate started in shadow
 * mode and enforced, both in the audit log. A viewer may simulate but sees no action.
 */
import { echo, tenantWithKey, uniqueName, type AdminApi } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin, sameOrigin } from "./support/session";

const GENEROUS = { name: "per-key", algorithm: "fixed_window", limit: 100, windowMs: 60_000 };
const REQUESTS = 10;

/** Waits until the tenant's trace holds `count` requests (recording is flushed about every second). */
async function waitForRecording(api: AdminApi, tenantId: string, count: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const now = Date.now();
        const answer = await api.call<{ requests: number }>("POST", `/api/admin/tenants/${tenantId}/simulate`, {
          rules: [GENEROUS],
          fromMs: now - 15 * 60_000,
          toMs: now + 1,
        });
        return answer.status === 200 ? answer.body.requests : -answer.status;
      },
      { timeout: 20_000, message: "recorded requests" },
    )
    .toBeGreaterThanOrEqual(count);
}

test("a stricter candidate is simulated on recorded traffic, started in shadow mode, then enforced", async ({
  page,
  api,
  request,
}, testInfo) => {
  const { tenant, key } = await tenantWithKey(api, uniqueName("simulator"), [GENEROUS]);
  for (let i = 0; i < REQUESTS; i++) expect(await echo(request, key.key)).toBe(200);
  await waitForRecording(api, tenant.id, REQUESTS);

  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}`);
  await page.getByRole("link", { name: "Simulate a rule change" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Rule simulator: ${tenant.name}`);

  // The candidate starts as the current rules, in the rule editor.
  const form = page.getByRole("form", { name: "Candidate rules" });
  await form.getByRole("button", { name: "Edit Rule 1: per-key" }).click();
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue("per-key");
  await expect(form.getByLabel("Limit")).toHaveValue("100");
  await expect(form.getByLabel("Window")).toHaveValue("1 min");

  // Sliding log is exact: 3 an hour refuses 7 of the 10 requests wherever minute boundaries fall.
  await form.getByLabel("Algorithm").selectOption("sliding_log");
  await form.getByLabel("Limit").fill("3");
  await form.getByLabel("Window").fill("1 h");
  await expect(form.getByTestId("rule-changes")).toContainText(
    "per-key: 100 per min → 3 per h, algorithm fixed window → sliding log",
  );
  await form.getByRole("button", { name: "15 min" }).click();
  await form.getByRole("button", { name: "Run simulation" }).click();

  const report = page.getByRole("region", { name: "Simulation" });
  await expect(report.getByTestId("simulation-summary")).toContainText(`Replayed ${REQUESTS} recorded requests`);
  await expect(report.getByRole("list", { name: "What the candidate changes" })).toHaveText(
    "per-key: 100 per min → 3 per h, algorithm fixed window → sliding log",
  );
  const newlyRefused = report.getByRole("table", { name: "Newly refused clients" });
  const keyRow = newlyRefused.getByRole("row").filter({ hasText: key.name });
  await expect(keyRow.getByRole("cell")).toHaveText([key.name, String(REQUESTS), "0", "7", "+7"]);
  await expect(keyRow.getByRole("link", { name: key.name })).toHaveAttribute("href", `/keys/${key.id}`);

  // Both rule sets on one chart: the current rules as stacked bars, the candidate as dashed lines.
  const chart = report.getByTestId("simulation-chart");
  await expect(chart).toHaveAttribute(
    "aria-label",
    "Requests per minute: current rules 10 allowed and 0 refused; candidate rules 3 allowed and 7 refused",
  );
  await expect(chart.locator(".recharts-bar")).toHaveCount(2);
  await expect(chart.locator(".recharts-line")).toHaveCount(2);
  for (const series of ["Current: allowed", "Current: refused", "Candidate: allowed", "Candidate: refused"]) {
    await expect(chart.locator(".recharts-legend-wrapper")).toContainText(series);
  }
  const totals = report.getByRole("table", { name: "Totals" });
  await expect(totals.getByRole("row", { name: /^Current/ }).getByRole("cell")).toHaveText(["10", "0", "0 %", "0"]);
  await expect(totals.getByRole("row", { name: /^Candidate/ }).getByRole("cell")).toHaveText(["3", "7", "70 %", "1"]);
  await attachScreenshot(page, testInfo, "simulator with a stricter candidate");

  // Shadow mode: the current rule stays; the candidate joins it as a shadow rule under a free name.
  await report.getByRole("button", { name: "Start in shadow mode" }).click();
  await expect(report.getByRole("status").filter({ hasText: "Started in shadow mode" })).toContainText(
    "per-key-candidate",
  );
  expect(await api.getTenantRules(tenant.id)).toEqual([
    expect.objectContaining({ name: "per-key", algorithm: "fixed_window", limit: 100, mode: "enforce" }),
    expect.objectContaining({
      name: "per-key-candidate",
      algorithm: "sliding_log",
      limit: 3,
      windowMs: 3_600_000,
      mode: "shadow",
    }),
  ]);

  // Enforce, after a confirmation: the candidate replaces the rules, shadow trial included.
  await report.getByRole("button", { name: "Enforce" }).click();
  await report.getByRole("button", { name: "Enforce the candidate" }).click();
  await expect(report.getByRole("status").filter({ hasText: "Enforced" })).toContainText("in force on every instance");
  expect(await api.getTenantRules(tenant.id)).toEqual([
    expect.objectContaining({
      name: "per-key",
      algorithm: "sliding_log",
      limit: 3,
      windowMs: 3_600_000,
      mode: "enforce",
    }),
  ]);

  // Both changes are in the audit log, by this operator, newest first.
  await page.goto(`/audit?tenantId=${tenant.id}`);
  const [enforced, shadowed] = await api.audit({ tenantId: tenant.id, limit: 2 });
  expect([enforced!.action, shadowed!.action]).toEqual(["rules.replace", "rules.replace"]);
  const latest = page.getByRole("article", {
    name: new RegExp(`^Rules of tenant .* replaced by .* #${enforced!.id}$`),
  });
  await expect(latest.getByLabel("Before")).toContainText('"name": "per-key-candidate"');
  await expect(latest.getByLabel("After")).toContainText('"algorithm": "sliding_log"');
  await expect(latest.getByLabel("After")).not.toContainText("per-key-candidate");
  await expect(
    page
      .getByRole("article", { name: new RegExp(`^Rules of tenant .* replaced by .* #${shadowed!.id}$`) })
      .getByLabel("After"),
  ).toContainText('"mode": "shadow"');
});

test("invalid candidates are refused inline; a viewer simulates but sees no action", async ({
  viewerPage: page,
  api,
}, testInfo) => {
  const tenant = await api.createTenant(uniqueName("simulator-viewer"));
  await api.putTenantRules(tenant.id, [GENEROUS]);
  await page.goto(`/tenants/${tenant.id}/simulate`);
  const form = page.getByRole("form", { name: "Candidate rules" });

  let posts = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/simulate")) posts += 1;
  });
  await form.getByRole("button", { name: /^Edit Rule 1/ }).click();
  await form.getByLabel("Limit").fill("0");
  await form.getByRole("button", { name: "Run simulation" }).click();
  await expect(form.getByRole("alert")).toHaveText("Nothing was simulated: fix the fields marked below.");
  await expect(form.getByLabel("Limit")).toHaveAccessibleDescription(/Limit must be at least 1/);
  expect(posts).toBe(0);

  await form.getByLabel("Limit").fill("1");
  await form.getByRole("button", { name: "Run simulation" }).click();
  const report = page.getByRole("region", { name: "Simulation" });
  await expect(report.getByText("Nothing recorded in this range")).toBeVisible();
  expect(posts).toBe(1);
  await expect(page.getByRole("button", { name: "Start in shadow mode" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Enforce" })).toHaveCount(0);
  await attachScreenshot(page, testInfo, "simulator as a viewer, nothing recorded");

  // The server refuses the change a viewer might try by hand.
  const put = await page.request.put(`/api/admin/tenants/${tenant.id}/rules`, {
    data: [],
    headers: sameOrigin(page),
  });
  expect(put.status()).toBe(403);
});

test("the server's 422 lands on the candidate's fields; a 503 is shown as the simulation's error", async ({
  page,
  api,
  consoleErrors,
}) => {
  const tenant = await api.createTenant(uniqueName("simulator-errors"));
  await api.putTenantRules(tenant.id, [GENEROUS]);
  consoleErrors.allow(/Failed to load resource: the server responded with a status of (422|503)/);
  // The browser runs the server's own schema, so neither answer can be provoked from the form:
  // answer the simulation with each to check where the page puts it.
  const answers = [
    {
      status: 422,
      body: {
        title: "Unprocessable Content",
        status: 422,
        detail: "The input is invalid (rules.0.limit: too many).",
        errors: { "rules.0.limit": ["too many for this tenant"] },
      },
    },
    {
      status: 503,
      body: {
        title: "Service Unavailable",
        status: 503,
        detail: "The limiter's store (Redis) is not answering; try again shortly.",
      },
    },
  ];
  await page.route(`**/api/admin/tenants/${tenant.id}/simulate`, (route) => {
    const answer = answers.shift()!;
    return route.fulfill({
      status: answer.status,
      contentType: "application/problem+json",
      body: JSON.stringify(answer.body),
    });
  });
  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}/simulate`);
  const form = page.getByRole("form", { name: "Candidate rules" });
  const report = page.getByRole("region", { name: "Simulation" });

  await form.getByRole("button", { name: "Run simulation" }).click();
  await expect(form.getByRole("alert")).toContainText("The server refused the candidate");
  await expect(form.getByLabel("Limit")).toHaveAccessibleDescription(/too many for this tenant/);
  await expect(form.getByLabel("Limit")).toHaveAttribute("aria-invalid", "true");
  await expect(report).toContainText("see the marked fields above");

  await form.getByRole("button", { name: "Run simulation" }).click();
  await expect(report.getByRole("alert")).toContainText("Service Unavailable (503)");
  await expect(report.getByRole("alert")).toContainText("not answering");
  await expect(form.getByLabel("Limit")).not.toHaveAttribute("aria-invalid", "true");
});
