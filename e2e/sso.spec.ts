/**
 * Single sign-on in Chromium against a real OpenID provider (oidc-provider, e2e/support/testIdp.ts)
 * that this spec starts on a loopback port: a first login creates the operator with the role its
 * groups map to (audited), a viewer stays read-only, and a wrong state, a role that maps to
 * nothing and an IdP that is down each end on the login page with a clear message, with no
 * operator created and no session. Serial: the tests share the IdP and start and stop it.
 */
import type { Page } from "@playwright/test";
import { uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { sameOrigin } from "./support/session";
import { IDP_ADMIN_GROUP, IDP_ISSUER, IDP_VIEWER_GROUP } from "./support/testEnv";
import { TestIdp } from "./support/testIdp";

const SLUICE = `http://127.0.0.1:${Number(process.env.E2E_PORT || 3107)}`;
const idp = new TestIdp(`${SLUICE}/api/auth/sso/callback`);

test.describe.configure({ mode: "serial" });
test.afterAll(async () => {
  await idp.stop();
});

const ssoLink = (page: Page) => page.getByRole("link", { name: "Log in with Test IdP" });
const ssoProblem = (page: Page) => page.getByRole("region", { name: "Single sign-on" }).getByRole("alert");

/** A new IdP user in `groups`: its login name and email. */
function idpUser(label: string, groups: string[]): { login: string; email: string } {
  const login = uniqueName(label);
  const email = `${login}@idp.sluice.test`;
  idp.addUser(login, { email, groups });
  return { login, email };
}

/** From Sluice's login page through the IdP's own login and consent pages. */
async function logInAtIdp(page: Page, login: string): Promise<void> {
  await ssoLink(page).click();
  await expect(page).toHaveURL(new RegExp(`^${IDP_ISSUER}/`));
  await page.getByPlaceholder("Enter any login").fill(login);
  await page.getByPlaceholder("and password").fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

async function expectNoSession(page: Page): Promise<void> {
  expect((await page.request.get("/api/auth/me")).status()).toBe(401);
}

test.beforeEach(({ consoleErrors }) => {
  // The IdP's development pages import a web font (unreachable offline) and have no favicon.
  consoleErrors.allow(/fonts\.googleapis|Failed to load resource: net::ERR_/);
  consoleErrors.allow(new RegExp(`404 \\(Not Found\\) \\(${IDP_ISSUER}/favicon\\.ico\\)`));
});

test("an IdP that cannot be reached: the login page says so, and nobody is logged in", async ({ page }, testInfo) => {
  await page.goto("/login");
  await ssoLink(page).click();
  await expect(page).toHaveURL(/\/login\?sso_error=idp_unavailable$/);
  await expect(ssoProblem(page)).toHaveText(/The identity provider could not be reached/);
  await attachScreenshot(page, testInfo, "IdP down");
  await expectNoSession(page);
});

test("an admin's first login creates the operator with the admin role, audited, and comes back to the page", async ({
  page,
  api,
}, testInfo) => {
  await idp.start();
  const { login, email } = idpUser("sso-admin", ["staff", IDP_ADMIN_GROUP]);
  expect((await api.listOperators()).some((o) => o.email === email)).toBe(false);
  await page.goto("/audit");
  await expect(page).toHaveURL(/\/login\?next=%2Faudit$/);
  await attachScreenshot(page, testInfo, "login page with single sign-on");
  await logInAtIdp(page, login);
  await expect(page).toHaveURL(`${SLUICE}/audit`);
  await expect(page.getByRole("banner").getByText(email)).toBeVisible();
  const operator = (await api.listOperators()).find((o) => o.email === email);
  expect(operator?.role).toBe("admin");
  const created = (await api.audit({ limit: 50 })).find((e) => e.target === `operator:${operator!.id}`);
  expect(created).toMatchObject({ action: "operator.create", actor: `sso:${IDP_ISSUER}` });
  // A second login finds the same operator.
  await page.context().clearCookies({ name: "sluice_session" });
  await page.goto("/login");
  await ssoLink(page).click();
  await expect(page).toHaveURL(`${SLUICE}/`);
  expect((await api.listOperators()).filter((o) => o.email === email)).toHaveLength(1);
  await page.goto("about:blank");
  await api.deleteOperator(operator!.id);
});

test("a viewer's login gives a read-only dashboard", async ({ page, api }) => {
  const { login, email } = idpUser("sso-viewer", [IDP_VIEWER_GROUP]);
  await page.goto("/login");
  await logInAtIdp(page, login);
  await expect(page).toHaveURL(`${SLUICE}/`);
  await page.goto("/operators");
  await expect(page.getByText("You are a viewer")).toBeVisible();
  await expect(page.getByRole("region", { name: "Add an operator" })).toHaveCount(0);
  const refused = await page.request.post("/api/admin/tenants", {
    data: { name: uniqueName("sso-nope") },
    headers: sameOrigin(page),
  });
  expect(refused.status()).toBe(403);
  expect((await page.request.get("/api/admin/tenants")).status()).toBe(200);
  const operator = (await api.listOperators()).find((o) => o.email === email);
  expect(operator?.role).toBe("viewer");
  await page.goto("about:blank");
  await api.deleteOperator(operator!.id);
});

test("a callback whose state is not this login's is refused", async ({ page, api }, testInfo) => {
  const { login, email } = idpUser("sso-state", [IDP_ADMIN_GROUP]);
  await page.goto("/login");
  await ssoLink(page).click();
  await expect(page).toHaveURL(new RegExp(`^${IDP_ISSUER}/`));
  // This browser's pending login now expects another state than the one the IdP will send back
  // (as when a callback of someone else's login is planted on the victim: login CSRF).
  const cookie = (await page.context().cookies(SLUICE)).find((c) => c.name === "sluice_sso");
  expect(cookie, "the pending single sign-on cookie").toBeTruthy();
  const stored = JSON.parse(Buffer.from(cookie!.value, "base64url").toString("utf8")) as Record<string, string>;
  const forged = Buffer.from(JSON.stringify({ ...stored, state: "another-login" })).toString("base64url");
  await page.context().addCookies([{ ...cookie!, value: forged }]);
  await page.getByPlaceholder("Enter any login").fill(login);
  await page.getByPlaceholder("and password").fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/login\?sso_error=state_mismatch$/);
  await expect(ssoProblem(page)).toHaveText(/wrong state/);
  await attachScreenshot(page, testInfo, "wrong state");
  await expectNoSession(page);
  expect((await api.listOperators()).some((o) => o.email === email)).toBe(false);
});

test("groups that map to no role are refused, and no operator is created", async ({ page, api }) => {
  const { login, email } = idpUser("sso-norole", ["staff"]);
  await page.goto("/login");
  await logInAtIdp(page, login);
  await expect(page).toHaveURL(/\/login\?sso_error=no_role$/);
  await expect(ssoProblem(page)).toHaveText(/no role in Sluice/);
  await expectNoSession(page);
  expect((await api.listOperators()).some((o) => o.email === email)).toBe(false);
});

test("an IdP that fails while the code is exchanged: the login page says so", async ({ page, api }) => {
  const { login, email } = idpUser("sso-down", [IDP_ADMIN_GROUP]);
  idp.failTokenEndpoint = true;
  try {
    await page.goto("/login");
    await logInAtIdp(page, login);
    await expect(page).toHaveURL(/\/login\?sso_error=idp_unavailable$/);
    await expect(ssoProblem(page)).toHaveText(/could not be reached/);
    await expectNoSession(page);
    expect((await api.listOperators()).some((o) => o.email === email)).toBe(false);
  } finally {
    idp.failTokenEndpoint = false;
  }
});
