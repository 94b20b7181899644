import { attachScreenshot, expect, test } from "./support/fixtures";

test("an anonymous visit to / is sent to the login page, without console errors", async ({ page }, testInfo) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("heading", { level: 1, name: "Log in to Sluice" })).toBeVisible();
  await attachScreenshot(page, testInfo, "login page");
});

test("GET /api/health answers 200 with redis and db ok", async ({ request }) => {
  // A cold instance's first probes (Prisma engine start, first connections) may miss their
  // deadline on a loaded machine and report "down": that is the endpoint working. Poll briefly.
  await expect.poll(async () => (await request.get("/api/health")).status(), { timeout: 15_000 }).toBe(200);
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^application\/json/);
  // The shared Redis runs with the policy Sluice needs (noeviction), so there is no warning.
  expect(await response.json()).toEqual({ redis: "ok", db: "ok", redisMaxmemoryPolicy: "noeviction" });
});
