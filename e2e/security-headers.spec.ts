/**
 * Security headers in the browser (lib/http/securityHeaders.js, proxy.ts, next.config.js):
 * - every dashboard page, logged in, answers with a nonce-based Content-Security-Policy and the
 *   other headers, every script on it carries this response's nonce, and the page (Recharts
 *   included) renders with no CSP violation and no console error (the `consoleErrors` fixture
 *   fails the test on any "Refused to ..." message);
 * - the policy really constrains scripts: an inline script without the nonce, slipped into the
 *   page's HTML, does not run and is reported as a violation;
 * - API answers carry the static set and a policy that allows nothing; HSTS appears only when the
 *   request came over HTTPS (X-Forwarded-Proto from the TLS-terminating proxy).
 */
import type { APIResponse, Page, Response } from "@playwright/test";
import { echo, tenantWithKey, uniqueName } from "./support/adminApi";
import { expect, test } from "./support/fixtures";
import { logInAsAdmin } from "./support/session";

type HeaderSource = Response | APIResponse;

function expectCommonHeaders(response: HeaderSource, headers: Record<string, string>): void {
  expect(headers["x-content-type-options"], response.url()).toBe("nosniff");
  expect(headers["referrer-policy"], response.url()).toBe("same-origin");
  expect(headers["x-frame-options"], response.url()).toBe("DENY");
  // Plain HTTP here: no HSTS.
  expect(headers["strict-transport-security"], response.url()).toBeUndefined();
}

/** Checks a page's headers; answers the nonce of its policy. */
function expectPageHeaders(response: Response | null, headers: Record<string, string>): string {
  expect(response, "a document response").not.toBeNull();
  expectCommonHeaders(response!, headers);
  const policy = headers["content-security-policy"] ?? "";
  const directives = new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values]),
  );
  const scripts = directives.get("script-src") ?? [];
  const nonce = scripts.find((s) => s.startsWith("'nonce-"))?.slice("'nonce-".length, -1);
  expect(nonce, `script-src of ${policy}`).toMatch(/^[A-Za-z0-9+/]{22}==$/);
  expect(scripts).toContain("'strict-dynamic'");
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(directives.get("object-src")).toEqual(["'none'"]);
  expect(directives.get("frame-ancestors")).toEqual(["'none'"]);
  expect(directives.get("base-uri")).toEqual(["'self'"]);
  return nonce!;
}

/** Records `securitypolicyviolation` events from the first script on, in every document of the page. */
async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (e) =>
      seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || "inline"} (${e.sample})`),
    );
  });
}

const violations = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

/** The nonce of every script element, as the browser sees it (the attribute is hidden after parsing). */
const scriptNonces = (page: Page): Promise<string[]> =>
  page.evaluate(() => Array.from(document.scripts, (s) => s.nonce ?? ""));

async function visit(page: Page, path: string, ready: (page: Page) => Promise<void>): Promise<string> {
  const response = await page.goto(path);
  const nonce = expectPageHeaders(response, (await response?.allHeaders()) ?? {});
  await ready(page);
  const nonces = await scriptNonces(page);
  expect(nonces.length, `scripts on ${path}`).toBeGreaterThan(0);
  expect(new Set(nonces), `script nonces on ${path}`).toEqual(new Set([nonce]));
  expect(await violations(page), `CSP violations on ${path}`).toEqual([]);
  return nonce;
}

const heading = (page: Page, name: string | RegExp) =>
  expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

test("every dashboard page has a nonce CSP and the other headers, and renders without a violation", async ({
  page,
  api,
  request,
  consoleErrors,
}) => {
  test.setTimeout(90_000);
  consoleErrors.allow(/status of 404 .*\/no-such-page\)$/);
  const { tenant, key } = await tenantWithKey(api, uniqueName("headers"), [
    { name: "per-key", algorithm: "fixed_window", limit: 2, windowMs: 60_000 },
  ]);
  // Allowed and refused traffic, so the charts have lines to draw.
  for (let i = 0; i < 4; i++) await echo(request, key.key);
  await recordViolations(page);

  const loginNonce = await visit(page, "/login", (p) => heading(p, "Log in to Sluice"));
  await logInAsAdmin(page);

  const nonces = [loginNonce];
  nonces.push(
    await visit(page, "/", async (p) => {
      await heading(p, "Overview");
      const traffic = p.getByRole("region", { name: "Requests per second, all tenants" });
      await expect(traffic.locator(".recharts-area")).toHaveCount(2, { timeout: 15_000 });
      await expect(
        p.getByRole("region", { name: "Hot callers" }).getByRole("row").filter({ hasText: key.name }),
      ).toHaveCount(1, { timeout: 15_000 });
    }),
  );
  nonces.push(await visit(page, "/tenants", (p) => expect(p.getByRole("link", { name: tenant.name })).toBeVisible()));
  nonces.push(
    await visit(page, `/tenants/${tenant.id}`, async (p) => {
      await heading(p, tenant.name);
      await expect(
        p.getByRole("region", { name: "Requests per second, this tenant" }).locator(".recharts-area"),
      ).toHaveCount(2, { timeout: 15_000 });
    }),
  );
  nonces.push(await visit(page, `/keys/${key.id}`, (p) => heading(p, key.name)));
  nonces.push(await visit(page, "/audit", (p) => heading(p, "Audit log")));
  nonces.push(await visit(page, "/operators", (p) => heading(p, "Operators")));
  nonces.push(await visit(page, "/docs", (p) => heading(p, /Sluice API/)));
  // Client-side navigation (RSC fetches, chunks loaded by nonced scripts) breaks nothing either.
  await page.getByRole("link", { name: "Tenants", exact: true }).click();
  await heading(page, "Tenants");
  expect(await violations(page)).toEqual([]);

  nonces.push(await visit(page, "/no-such-page", (p) => heading(p, "Page not found")));
  // A fresh nonce for every page.
  expect(new Set(nonces).size).toBe(nonces.length);
});

test("an inline script without the nonce does not run", async ({ page, consoleErrors }) => {
  // Chromium's wording changed over versions ("Refused to execute inline script because it violates", "Executing inline script violates").
  consoleErrors.allow(
    /inline script (because it )?violates the following Content Security Policy directive 'script-src/,
  );
  await recordViolations(page);
  // The real /login answer, headers unchanged, with an injected script in its HTML.
  await page.route("**/login", async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace("</body>", "<script>window.injected = true;</script></body>");
    await route.fulfill({ response, body: html });
  });
  await page.goto("/login");
  await heading(page, "Log in to Sluice");
  expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
  await expect.poll(() => violations(page)).toEqual([expect.stringMatching(/^script-src-elem blocked inline/)]);
});

test("API answers carry the static headers and a policy that allows nothing; HSTS only over HTTPS", async ({
  request,
}) => {
  for (const response of [
    await request.get("/api/health"),
    await request.get("/api/v1/echo"),
    await request.get("/api/admin/tenants"),
  ]) {
    const headers = response.headers();
    expectCommonHeaders(response, headers);
    expect(headers["content-security-policy"], response.url()).toBe("default-src 'none'; frame-ancestors 'none'");
  }
  const overHttps = await request.get("/api/health", { headers: { "x-forwarded-proto": "https" } });
  expect(overHttps.headers()["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
  const pageOverHttps = await request.get("/login", { headers: { "x-forwarded-proto": "https" } });
  expect(pageOverHttps.headers()["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
});
