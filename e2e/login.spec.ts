import type { Page } from "@playwright/test";
import { LOGIN_FAILURES_PER_EMAIL_AND_IP } from "@/lib/control/auth/loginLimit";
import { uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin, logInThroughForm } from "./support/session";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./support/testEnv";

const PASSWORD = "correct horse battery staple";

// Scoped: Next's route announcer is an alert region of its own.
const loginForm = (page: Page) => page.getByRole("form", { name: "Log in to Sluice" });

test.describe("login", () => {
  test("a page behind the login comes back after logging in", async ({ page }, testInfo) => {
    await page.goto("/audit");
    await expect(page).toHaveURL(/\/login\?next=%2Faudit$/);
    await attachScreenshot(page, testInfo, "login page");
    await logInThroughForm(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await expect(page).toHaveURL(/\/audit$/);
    await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" }),
    ).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("banner").getByText(ADMIN_EMAIL)).toBeVisible();
  });

  test("a next parameter naming another site is ignored", async ({ page }) => {
    await page.goto(`/login?next=${encodeURIComponent("//evil.example/steal")}`);
    await logInThroughForm(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  });

  test("a next parameter that only normalises to another site is ignored too", async ({ page }) => {
    // `/.//evil.example` passes every check of the raw text, and the URL parser makes it `//evil.example`.
    await page.goto(`/login?next=${encodeURIComponent("/.//evil.example/steal")}`);
    await logInThroughForm(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
  });

  test("a wrong password is refused with the server's message", async ({ page, api, consoleErrors }) => {
    consoleErrors.allow(/Failed to load resource: the server responded with a status of 401/);
    const email = `${uniqueName("wrong")}@sluice.test`;
    const operator = await api.createOperator({ email, password: PASSWORD, role: "viewer" });
    try {
      await page.goto("/login");
      await logInThroughForm(page, email, `${PASSWORD}!`);
      await expect(loginForm(page).getByRole("alert")).toHaveText("Wrong email or password.");
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole("button", { name: "Log in" })).toBeEnabled();
    } finally {
      await api.deleteOperator(operator.id);
    }
  });

  test("after repeated failures even the right password is refused, and the page says when to try again", async ({
    page,
    api,
    consoleErrors,
  }) => {
    consoleErrors.allow(/Failed to load resource: the server responded with a status of 429/);
    // A fresh email: the per-(email, address) limit (5) is reached long before the per-IP one
    // (10), which every spec's login shares.
    const email = `${uniqueName("limited")}@sluice.test`;
    const operator = await api.createOperator({ email, password: PASSWORD, role: "viewer" });
    try {
      for (let i = 0; i < LOGIN_FAILURES_PER_EMAIL_AND_IP; i++) {
        const failed = await page.request.post("/api/auth/login", { data: { email, password: "not the password" } });
        expect(failed.status()).toBe(401);
      }
      await page.goto("/login");
      await logInThroughForm(page, email, PASSWORD);
      const alert = loginForm(page).getByRole("alert");
      await expect(alert).toContainText("Too many failed logins. Try again in");
      await expect(alert).toContainText(/You can try again at \d{1,2}:\d{2}/);
      await expect(page).toHaveURL(/\/login$/);
    } finally {
      await api.deleteOperator(operator.id);
    }
  });
});

test.describe("logout", () => {
  test("ends the session: the browser is sent to the login and the old cookie is refused", async ({
    page,
    context,
  }) => {
    await logInAsAdmin(page);
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();
    const cookie = (await context.cookies()).find((c) => c.name === "sluice_session");
    expect(cookie).toBeTruthy();

    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect((await context.cookies()).find((c) => c.name === "sluice_session")).toBeUndefined();

    // The session is gone on the server, not just forgotten by the browser.
    const replayed = await page.request.get("/api/auth/me", { headers: { cookie: `sluice_session=${cookie!.value}` } });
    expect(replayed.status()).toBe(401);
    const admin = await page.request.get("/api/admin/tenants", {
      headers: { cookie: `sluice_session=${cookie!.value}` },
    });
    expect(admin.status()).toBe(401);

    await page.goto("/operators");
    await expect(page).toHaveURL(/\/login\?next=%2Foperators$/);
  });
});
