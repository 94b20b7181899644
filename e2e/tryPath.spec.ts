/**
 * The rule editor's "try a path" box and its warning on gateway paths (contract v3, rule field
 * `match`: rules match the path the protected API sees). A tenant with a gateway upstream and three
 * rules: `/orders/*` (the gateway's /api/v1/orders/42 as forwarded), `/api/v1/orders/*` (the old
 * spelling, which never matches a gateway request: warned about, still saved) and echo's.
 */
import { expect, test } from "./support/fixtures";
import { uniqueName } from "./support/adminApi";
import { countRequests } from "./support/requestCounter";
import { logInAsAdmin } from "./support/session";

test("try a path: each rule being edited says whether a request meets it; /api/v1 gateway paths are warned about", async ({
  page,
  api,
}) => {
  const tenant = await api.createTenant(uniqueName("try-path"));
  await api.putTenantRules(tenant.id, [
    { name: "orders", limit: 10, windowMs: 60_000, match: { path: "/orders/*" } },
    { name: "old-orders", limit: 10, windowMs: 60_000, match: { path: "/api/v1/orders/*" } },
    { name: "echo", limit: 10, windowMs: 60_000, match: { methods: ["GET"], path: "/api/v1/echo/**" } },
  ]);
  const upstream = await api.call("PUT", `/api/admin/tenants/${tenant.id}/upstream`, {
    url: "https://orders.example.com",
  });
  expect(upstream.status).toBe(200);

  await logInAsAdmin(page);
  await page.goto(`/tenants/${tenant.id}`);
  const puts = countRequests(page, "PUT", `/api/admin/tenants/${tenant.id}/rules`);
  await page.getByRole("button", { name: "Edit rules" }).click();
  const form = page.getByRole("form", { name: "Rules" });

  // The old spelling is warned about (once, for its rule), and names the path to write.
  const warnings = form.getByTestId("gateway-path-warning");
  await expect(warnings).toHaveCount(1);
  await expect(warnings).toContainText("old-orders: /api/v1/orders/* never matches a request through the gateway");
  await expect(warnings).toContainText("(write /orders/*)");

  const box = form.getByRole("region", { name: "Try a path" });
  await expect(box).toContainText("through the gateway the path without /api/v1");
  const request = box.getByRole("textbox", { name: "Request" });
  const result = box.getByTestId("try-path-result");
  const verdicts = box.getByRole("list", { name: "Each rule's verdict" }).getByRole("listitem");

  await request.fill("GET /orders/42");
  await expect(result).toContainText("GET /orders/42: 1 rule matches.");
  await expect(verdicts).toHaveText(["orders: matches", "old-orders: no match", "echo: no match"]);

  // Enter in the box does not submit the form.
  await request.press("Enter");
  await request.fill("get /api/v1/echo/a?x=1");
  await expect(verdicts).toHaveText(["orders: no match", "old-orders: no match", "echo: matches"]);
  await request.fill("POST /api/v1/echo/a");
  await expect(result).toContainText("POST /api/v1/echo/a: no rule in this list matches.");

  // A gateway path typed with /api/v1 is explained.
  await request.fill("GET /api/v1/orders/42");
  await expect(result).toContainText("Sent to the gateway under /api/v1, this request is matched as /orders/42");
  await request.fill("GET /a%2Fb");
  await expect(result).toContainText("%2F");

  // The drafts as they stand: fixing the old rule's path fixes its verdict and the warning goes.
  await form.getByRole("button", { name: "Edit Rule 2: old-orders" }).click();
  await form.getByLabel("Path", { exact: true }).fill("/orders/*");
  await expect(warnings).toHaveCount(0);
  await request.fill("GET /orders/42");
  await expect(verdicts).toHaveText(["orders: matches", "old-orders: matches", "echo: no match"]);
  expect(puts()).toBe(0);
});
