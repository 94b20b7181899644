/**
 * Single sign-on in Chromium against a real OpenID provider (oidc-provider, e2e/support/testIdp.ts)
 * that this spec starts on a loopback port: a first login creates the operator with the role its
 * groups map to (audited), a viewer stays read-only, and a wrong state, a role that maps to
 * nothing and an IdP that is down each end on the login page with a clear message, with no
 * operator created and no session. Logging out of a single sign-on session ends the IdP's session
 * too (RP-initiated logout) and comes back to the login. On two instances (a second Sluice server
 * started here, on the same database and Redis), a login started on one completes on the other and
 * its session is valid on both, and a change made with it is audited under the operator's email.
 * Serial: the tests share the IdP and start and stop it.
 */
import type { Page } from "@playwright/test";
import { startSluice } from "../test/support/sluiceServer";
import { uniqueName } from "./support/adminApi";
import { attachScreenshot, expect, test } from "./support/fixtures";
import { sameOrigin } from "./support/session";
import { IDP_ADMIN_GROUP, IDP_ISSUER, IDP_VIEWER_GROUP, SERVER_ENV } from "./support/testEnv";
import { TestIdp } from "./support/testIdp";

const SLUICE = `http://127.0.0.1:${Number(process.env.E2E_PORT || 3107)}`;
const idp = new TestIdp([`${SLUICE}/api/auth/sso/callback`], [`${SLUICE}/login`]);

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

test("logging out of a single sign-on session ends the IdP's session too, and comes back to the login", async ({
  page,
  api,
}, testInfo) => {
  const { login, email } = idpUser("sso-logout", [IDP_ADMIN_GROUP]);
  await page.goto("/login");
  await logInAtIdp(page, login);
  await expect(page).toHaveURL(`${SLUICE}/`);
  await page.getByRole("button", { name: "Log out" }).click();
  // The provider's own confirmation page of RP-initiated logout.
  await expect(page).toHaveURL(new RegExp(`^${IDP_ISSUER}/session/end`));
  await attachScreenshot(page, testInfo, "IdP logout");
  await page.getByRole("button", { name: "Yes, sign me out" }).click();
  await expect(page).toHaveURL(`${SLUICE}/login`);
  await expectNoSession(page);
  // The IdP's session ended too: the next single sign-on asks for the login again.
  await ssoLink(page).click();
  await expect(page.getByPlaceholder("Enter any login")).toBeVisible();
  await page.goto("about:blank");
  const operator = (await api.listOperators()).find((o) => o.email === email);
  await api.deleteOperator(operator!.id);
});

test("on two instances: a login started on one completes on the other, and its session is valid on both", async ({
  page,
  api,
}) => {
  test.setTimeout(120_000);
  // Instance B sends the IdP back to A's callback, as when a load balancer hands the callback to
  // another node: B's pending login (state, nonce, PKCE verifier) must be readable by A.
  const b = await startSluice({
    env: { ...SERVER_ENV, SLUICE_OIDC_REDIRECT_URI: `${SLUICE}/api/auth/sso/callback` },
  });
  try {
    const { login, email } = idpUser("sso-two", [IDP_ADMIN_GROUP]);
    await page.goto(`${b.url}/login?next=%2Ftenants`);
    await logInAtIdp(page, login);
    await expect(page).toHaveURL(`${SLUICE}/tenants`);
    await expect(page.getByRole("banner").getByText(email)).toBeVisible();
    // The session A opened is valid on B (cookies are per host, not per port: the browser sends it to both).
    const onB = await page.request.get(`${b.url}/api/auth/me`);
    expect(onB.status()).toBe(200);
    expect(await onB.json()).toEqual({ email, role: "admin", tenantIds: [] });
    await page.goto(`${b.url}/tenants`);
    await expect(page.getByRole("banner").getByText(email)).toBeVisible();
    // A change made with it on B is audited under the single sign-on operator's email.
    const created = await page.request.post(`${b.url}/api/admin/tenants`, {
      data: { name: uniqueName("sso-two-tenant") },
      headers: { origin: b.url },
    });
    expect(created.status()).toBe(201);
    const tenant = (await created.json()) as { id: string };
    const event = (await api.audit({ tenantId: tenant.id, limit: 5 })).find((e) => e.action === "tenant.create");
    expect(event?.actor).toBe(`operator:${email}`);
    await page.goto("about:blank");
    const operator = (await api.listOperators()).find((o) => o.email === email);
    await api.deleteOperator(operator!.id);
  } finally {
    await b.stop();
  }
});
