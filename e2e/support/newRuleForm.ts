/**
 * A fresh tenant's rule editor with one rule added: logs in as admin, opens the tenant page and
 * "Edit rules", adds a rule and names it. Returns the tenant, the form and a counter of the rule
 * list's PUTs (an invalid form must send none).
 */
import type { Page } from "@playwright/test";
import { uniqueName, type AdminApi } from "./adminApi";
import { countRequests } from "./requestCounter";
import { logInAsAdmin } from "./session";

export async function newRuleForm(page: Page, api: AdminApi, label: string, ruleName: string) {
  const tenant = await api.createTenant(uniqueName(label));
  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}`);
  const puts = countRequests(page, "PUT", `/api/admin/tenants/${tenant.id}/rules`);
  await page.getByRole("button", { name: "Edit rules" }).click();
  const form = page.getByRole("form", { name: "Rules" });
  await form.getByRole("button", { name: "Add rule" }).click();
  await form.getByLabel("Name", { exact: true }).fill(ruleName);
  return { tenant, form, puts };
}
