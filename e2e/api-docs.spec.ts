/**
 * The API reference page (/docs): the OpenAPI document rendered by the dashboard, grouped by tag,
 * every operation linked from the table of contents, request bodies and answers with their
 * schemas, and the raw document one click away. (Its CSP is checked with every other page in
 * security-headers.spec.ts.)
 */
import { attachScreenshot, expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";

test("the API reference shows every route group with operations, bodies and answers", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  await logInAsAdmin(page);
  await page.goto("/");
  await page.getByRole("link", { name: "API docs" }).click();
  // A long server-rendered page: on a loaded machine the navigation takes a while.
  await expect(page.getByRole("heading", { level: 1, name: /Sluice API/ })).toBeVisible({ timeout: 30_000 });

  for (const tag of [
    "Client API",
    "Tenants",
    "API keys",
    "Rules",
    "Gateway",
    "Monitoring",
    "Simulator",
    "Audit",
    "Operators",
    "Service",
  ]) {
    await expect(page.getByRole("heading", { level: 2, name: tag, exact: true })).toBeVisible();
  }
  // The table of contents leads to the operation.
  await page
    .getByRole("navigation", { name: "Operations" })
    .getByRole("link", { name: "PUT /api/admin/tenants/{tenantId}/rules", exact: true })
    .click();
  const putRules = page.locator("#putTenantRules");
  await expect(putRules).toBeInViewport();
  await expect(putRules.getByText("Replace the tenant's rules")).toBeVisible();
  // The request body is the rule schema: its fields, their constraints and defaults (the answer's
  // schema, listed after it, stays folded until opened).
  await expect(putRules.getByText("windowMs", { exact: true }).first()).toBeVisible();
  await expect(putRules.getByText(/integer · 1000 … 31622400000/).first()).toBeVisible();
  await expect(putRules.getByText(/one of "open", "closed", "local" · default "open"/).first()).toBeVisible();
  // A problem answer opens to its schema and headers.
  const check = page.locator("#check");
  await check.getByText("429", { exact: true }).click();
  // Every error answer has the problem schema; only the opened one shows.
  await expect(check.getByText("Retry-After", { exact: true }).filter({ visible: true })).toHaveCount(1);
  await expect(check.getByText("violated-policies", { exact: true }).filter({ visible: true })).toHaveCount(1);
  await attachScreenshot(page, testInfo, "api-docs");

  const raw = await request.get("/api/openapi.json");
  expect(raw.status()).toBe(200);
  expect(((await raw.json()) as { openapi: string }).openapi).toBe("3.1.0");
  await expect(page.getByRole("link", { name: "openapi.json", exact: true })).toHaveAttribute(
    "href",
    "/api/openapi.json",
  );
});
