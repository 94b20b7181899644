/**
 * Issue 31's before/after pictures: the overview, a key page and a tenant page at 1440 and 390 px
 * (light), after half a minute of the demo's traffic (lib/control/demo) on the demo's tenants.
 * Written to docs/screenshots/issue31/<SCREENSHOT_PREFIX>-<page>-<width>.jpg.
 */
import path from "node:path";
import { DEMO_TENANTS } from "../../lib/control/demo/demoTenants";
import { DEMO_BEHAVIOURS, startDemoTraffic } from "../../lib/control/demo/demoTraffic";
import type { CreatedKey } from "../support/adminApi";
import { expect, test } from "../support/fixtures";
import { logInAsAdmin } from "../support/session";

const PREFIX = process.env.SCREENSHOT_PREFIX || "shot";
const OUT = path.resolve("docs/screenshots/issue31");

test("issue 31 screenshots", async ({ page, api, baseURL }) => {
  test.setTimeout(240_000);
  const keys = new Map<string, CreatedKey>();
  const tenantIds = new Map<string, string>();
  for (const demo of DEMO_TENANTS) {
    const tenant = await api.ensureTenant(demo.name);
    tenantIds.set(demo.name, tenant.id);
    await api.putTenantRules(tenant.id, demo.rules);
    // Fresh demo keys each run; the previous ones revoked (as the demo's seed does).
    const listed = await api.call<{ id: string; name: string; revokedAt: string | null }[]>(
      "GET",
      `/api/admin/tenants/${tenant.id}/keys`,
    );
    for (const key of listed.body)
      if (!key.revokedAt && key.name.startsWith("demo: ")) await api.call("DELETE", `/api/admin/keys/${key.id}`);
    for (const client of demo.clients) {
      const created = await api.createKey(tenant.id, `demo: ${client}`);
      keys.set(`${demo.name}/${client}`, created);
    }
  }
  const traffic = startDemoTraffic({
    baseUrl: baseURL!,
    keyOf: (tenant, client) => keys.get(`${tenant}/${client}`)!.key,
    behaviours: DEMO_BEHAVIOURS,
  });
  try {
    await page.waitForTimeout(40_000);
    await logInAsAdmin(page);
    const acme = tenantIds.get("Acme (demo)")!;
    const abusive = keys.get("Acme (demo)/abusive")!;
    const pages: [string, string][] = [
      ["overview", "/"],
      ["key", `/keys/${abusive.id}`],
      ["tenant", `/tenants/${acme}`],
    ];
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      for (const [name, url] of pages) {
        await page.goto(url);
        await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
        await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => undefined);
        await page.waitForTimeout(1_500);
        await page.screenshot({
          path: path.join(OUT, `${PREFIX}-${name}-${width}.jpg`),
          fullPage: true,
          type: "jpeg",
          quality: 20,
        });
      }
    }
  } finally {
    traffic.stop();
  }
});
