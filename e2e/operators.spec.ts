import { uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { deleteLoggedInOperator, logInAs, logInAsAdmin, sameOrigin } from "./support/session";

const PASSWORD = "correct horse battery staple";

test("an admin adds an operator, changes its role and deletes it", async ({ page, api }, testInfo) => {
  const email = `${uniqueName("ops")}@sluice.test`;
  await logInAsAdmin(page);
  await page.goto("/operators");
  await expect(page.getByRole("heading", { level: 1, name: "Operators" })).toBeVisible();

  const form = page.getByRole("region", { name: "Add an operator" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill("short");
  await form.getByRole("button", { name: "Add operator" }).click();
  // The form's own check: the same schema (and message) as the admin API.
  await expect(form.getByText("password must be at least 12 characters")).toBeVisible();
  await expect(form.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByLabel("Role").selectOption("viewer");
  await form.getByRole("button", { name: "Add operator" }).click();
  await expect(form.getByRole("status")).toHaveText(`Added ${email}.`);

  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row.getByLabel(`Role of ${email}`)).toHaveValue("viewer");
  await attachScreenshot(page, testInfo, "operators");

  await row.getByLabel(`Role of ${email}`).selectOption("admin");
  await expect.poll(async () => (await api.listOperators()).find((o) => o.email === email)?.role).toBe("admin");

  await row.getByRole("button", { name: "Delete" }).click();
  await row.getByRole("button", { name: "Yes, delete" }).click();
  await expect(row).toHaveCount(0);
  expect((await api.listOperators()).some((o) => o.email === email)).toBe(false);
});

test("adding an email that exists shows the server's 409 message", async ({ page, api, consoleErrors }) => {
  consoleErrors.allow(/Failed to load resource: the server responded with a status of 409/);
  const email = `${uniqueName("dup")}@sluice.test`;
  const existing = await api.createOperator({ email, password: PASSWORD, role: "viewer" });
  try {
    await logInAsAdmin(page);
    await page.goto("/operators");
    const form = page.getByRole("region", { name: "Add an operator" });
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Password").fill(PASSWORD);
    await form.getByRole("button", { name: "Add operator" }).click();
    await expect(form.getByRole("alert")).toHaveText(`An operator with email "${email}" already exists.`);
  } finally {
    await api.deleteOperator(existing.id);
  }
});

test("a viewer sees no change controls, and the API refuses its changes with 403", async ({ page, api }, testInfo) => {
  const email = `${uniqueName("viewer")}@sluice.test`;
  const viewer = await api.createOperator({ email, password: PASSWORD, role: "viewer" });
  const tenant = await api.createTenant(uniqueName("viewer-sees"));
  await api.putTenantRules(tenant.id, [{ name: "per-key", limit: 5, windowMs: 60_000 }]);
  try {
    await logInAs(page, email, PASSWORD);

    await page.goto("/operators");
    await expect(page.getByRole("row").filter({ hasText: email })).toBeVisible();
    await expect(page.getByText("You are a viewer")).toBeVisible();
    await expect(page.getByRole("region", { name: "Add an operator" })).toHaveCount(0);
    await expect(page.getByRole("combobox")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Delete" })).toHaveCount(0);
    await attachScreenshot(page, testInfo, "operators as a viewer");

    await page.goto(`/audit?tenantId=${tenant.id}`);
    await expect(page.getByRole("article")).toHaveCount(2);
    await expect(page.getByRole("button", { name: "Revert" })).toHaveCount(0);

    const headers = sameOrigin(page);
    const createTenant = await page.request.post("/api/admin/tenants", { data: { name: uniqueName("nope") }, headers });
    expect(createTenant.status()).toBe(403);
    expect((await createTenant.json()).detail).toBe("Your role (viewer) may read but not change anything.");
    const promote = await page.request.patch(`/api/admin/operators/${viewer.id}`, { data: { role: "admin" }, headers });
    expect(promote.status()).toBe(403);
    const [change] = await api.audit({ tenantId: tenant.id, limit: 1 });
    const revert = await page.request.post(`/api/admin/audit/${change!.id}/revert`, { headers });
    expect(revert.status()).toBe(403);
    // Reading is allowed.
    expect((await page.request.get("/api/admin/operators")).status()).toBe(200);
  } finally {
    await deleteLoggedInOperator(page, api, viewer.id);
  }
});

test("an admin limits an operator to one tenant, who then reaches only that tenant", async ({
  page,
  api,
  browser,
}, testInfo) => {
  const email = `${uniqueName("limited")}@sluice.test`;
  const limited = await api.createOperator({ email, password: PASSWORD, role: "admin" });
  const mine = await api.createTenant(uniqueName("op-mine"));
  const other = await api.createTenant(uniqueName("op-other"));
  try {
    await logInAsAdmin(page);
    await page.goto("/operators");
    const row = page.getByRole("row").filter({ hasText: email });
    await row.getByText("every tenant", { exact: true }).click();
    await row.getByRole("checkbox", { name: mine.name }).check();
    await row.getByRole("button", { name: "Save tenants" }).click();
    await expect(row.getByText(mine.name, { exact: true }).first()).toBeVisible();
    await expect
      .poll(async () => (await api.listOperators()).find((o) => o.id === limited.id)?.tenantIds)
      .toEqual([mine.id]);
    await attachScreenshot(page, testInfo, "operator limited to a tenant");
    const [event] = await api.audit({ limit: 1 });
    expect(event).toMatchObject({ action: "operator.update", target: `operator:${limited.id}` });

    const context = await browser.newContext({ baseURL: new URL(page.url()).origin });
    const theirs = await context.newPage();
    try {
      await logInAs(theirs, email, PASSWORD);
      expect((await theirs.request.get(`/api/admin/tenants/${mine.id}`)).status()).toBe(200);
      expect((await theirs.request.get(`/api/admin/monitoring/traffic?tenantId=${mine.id}`)).status()).toBe(200);
      expect((await theirs.request.get(`/api/admin/tenants/${other.id}`)).status()).toBe(403);
      const listed = await theirs.request.get("/api/admin/tenants");
      expect(listed.status()).toBe(200);
      expect(((await listed.json()) as { id: string }[]).map((t) => t.id)).toEqual([mine.id]);
    } finally {
      await context.close();
    }
  } finally {
    await api.deleteOperator(limited.id);
  }
});
