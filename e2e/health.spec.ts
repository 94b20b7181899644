import { expect, test } from "@playwright/test";

test("the landing page renders its heading without console errors", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));

  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Sluice" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Service health" })).toHaveAttribute("href", "/api/health");
  expect(errors).toEqual([]);
});

test("GET /api/health answers 200 with redis and db ok", async ({ request }) => {
  // A cold instance's first probes (Prisma engine start, first connections) may miss their
  // deadline on a loaded machine and report "down": that is the endpoint working. Poll briefly.
  await expect.poll(async () => (await request.get("/api/health")).status(), { timeout: 15_000 }).toBe(200);
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/^application\/json/);
  expect(await response.json()).toEqual({ redis: "ok", db: "ok" });
});
