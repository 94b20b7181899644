/**
 * Every page of the dashboard (app/(dashboard)/**\/page.tsx), with data on it: a tenant with the
 * demo's kinds of rules (one per algorithm, a shadow rule, a path-matched one, an identifier rule
 * with an override), two keys with traffic (one refused), a key override, so the tables, charts
 * and quota bars are drawn. Each page names its route; `dashboardRoutesOnDisk` lists the routes
 * that exist, so a spec fails when a page is added without being checked.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import { DEMO_TENANTS } from "../../lib/control/demo/demoTenants";
import { type AdminApi, echo, tenantWithKey, uniqueName } from "./adminApi";
import { expect } from "./fixtures";

export interface DashboardPage {
  name: string;
  route: string;
  path: string;
  /** The page's h1 (a RegExp where it carries a version or a name). */
  heading: string | RegExp;
}

/** Routes of app/(dashboard) (folders with a page.tsx), e.g. `/tenants/[tenantId]`. */
export function dashboardRoutesOnDisk(): string[] {
  const root = path.resolve("app/(dashboard)");
  const found: string[] = [];
  const walk = (dir: string, route: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${route}/${entry.name}`);
      else if (entry.name === "page.tsx") found.push(route || "/");
    }
  };
  walk(root, "");
  return found.sort();
}

export async function furnishedDashboard(
  api: AdminApi,
  request: Parameters<typeof echo>[0],
): Promise<{ pages: DashboardPage[]; tenantId: string; keyId: string }> {
  // The demo's first tenant's rules (one per algorithm, a shadow rule, a path-matched one, an
  // identifier rule), with a per-key limit of 3 so that a few requests are refused.
  const rules = DEMO_TENANTS[0].rules.map((rule) => (rule.name === "per-key" ? { ...rule, limit: 3 } : rule));
  const { tenant, key } = await tenantWithKey(api, uniqueName("layout"), rules);
  const other = await api.createKey(tenant.id, uniqueName("second-key"));
  const override = await api.call("PUT", `/api/admin/keys/${key.id}/rules`, [
    { name: "burst", algorithm: "token_bucket", scope: "key", limit: 20, windowMs: 1_000, burst: 40 },
  ]);
  expect(override.status, JSON.stringify(override.body)).toBe(200);
  const identifier = await api.call("PUT", `/api/admin/tenants/${tenant.id}/rules/signups/overrides`, [
    { identifier: "enterprise:*", limit: 500 },
  ]);
  expect(identifier.status, JSON.stringify(identifier.body)).toBe(200);
  for (let i = 0; i < 5; i++) await echo(request, key.key);
  await echo(request, other.key);
  const pages: DashboardPage[] = [
    { name: "overview", route: "/", path: "/", heading: "Overview" },
    { name: "tenants", route: "/tenants", path: "/tenants", heading: "Tenants" },
    { name: "tenant", route: "/tenants/[tenantId]", path: `/tenants/${tenant.id}`, heading: tenant.name },
    {
      name: "simulator",
      route: "/tenants/[tenantId]/simulate",
      path: `/tenants/${tenant.id}/simulate`,
      heading: `Rule simulator: ${tenant.name}`,
    },
    { name: "key", route: "/keys/[keyId]", path: `/keys/${key.id}`, heading: key.name },
    { name: "audit", route: "/audit", path: "/audit", heading: "Audit log" },
    { name: "operators", route: "/operators", path: "/operators", heading: "Operators" },
    { name: "tokens", route: "/tokens", path: "/tokens", heading: "API tokens" },
    { name: "usage", route: "/tenants/[tenantId]/usage", path: `/tenants/${tenant.id}/usage`, heading: "Usage" },
    {
      // An anonymous caller's page (the hot-callers table links JWT subjects and addresses here).
      name: "caller",
      route: "/tenants/[tenantId]/callers/[caller]",
      path: `/tenants/${tenant.id}/callers/${encodeURIComponent("@203.0.113.9")}`,
      heading: "Anonymous IP 203.0.113.9",
    },
    { name: "docs", route: "/docs", path: "/docs", heading: /Sluice API/ },
  ];
  return { pages, tenantId: tenant.id, keyId: key.id };
}

/** Opens a dashboard page and waits for its heading and its first data. */
export async function openDashboardPage(page: Page, target: DashboardPage): Promise<void> {
  await page.goto(target.path);
  await expect(page.getByRole("heading", { level: 1, name: target.heading })).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState("networkidle", { timeout: 5_000 }).catch(() => undefined);
  await expect(page.locator('[role="status"]').filter({ hasText: /^Loading/ })).toHaveCount(0, { timeout: 15_000 });
}

/**
 * What sticks out past the right edge of the viewport: the outermost elements wider than the page,
 * as `tag.class` (for the failure message of a sideways-scrolling page).
 */
export function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    // Inside a box that scrolls or clips, sticking out is not the page's sideways scroll.
    const clipped = (element: HTMLElement): boolean => {
      for (let up = element.parentElement; up && up !== document.body; up = up.parentElement)
        if (getComputedStyle(up).overflowX !== "visible") return true;
      return false;
    };
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const box = element.getBoundingClientRect();
      if (box.right <= width + 0.5 || box.width === 0) continue;
      const parent = element.parentElement;
      if (parent && parent !== document.body && parent.getBoundingClientRect().right > width + 0.5) continue;
      if (clipped(element)) continue;
      out.push(`${element.tagName.toLowerCase()}.${element.className} (${Math.round(box.right)} px)`);
    }
    return out.slice(0, 8);
  });
}
