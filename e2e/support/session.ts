/**
 * Logging in from a spec. `logInAs` goes through POST /api/auth/login with the page's own request
 * context, so the session cookie lands in the browser context without clicking through the form
 * (the login page itself is tested in login.spec.ts). `logInThroughForm` types into the form.
 */
import { expect, type Page } from "@playwright/test";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "./testEnv";

export async function logInAs(page: Page, email: string, password: string): Promise<void> {
  const response = await page.request.post("/api/auth/login", { data: { email, password } });
  expect(response.status(), await response.text()).toBe(200);
}

export function logInAsAdmin(page: Page): Promise<void> {
  return logInAs(page, ADMIN_EMAIL, ADMIN_PASSWORD);
}

export async function logInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** Same-origin headers for a cookie-carried change made with page.request (the CSRF check wants them). */
export function sameOrigin(page: Page): Record<string, string> {
  return { origin: new URL(page.url()).origin };
}

/**
 * Deletes the operator `page` is logged in as, after leaving the dashboard: a page still polling
 * would meet its ended session (401s in the console, which the fixture counts as errors).
 */
export async function deleteLoggedInOperator(
  page: Page,
  api: { deleteOperator(id: string): Promise<void> },
  operatorId: string,
): Promise<void> {
  await page.goto("about:blank");
  await api.deleteOperator(operatorId);
}
