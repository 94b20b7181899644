/**
 * The login limit (per IP, per email and IP, per email; failures only) through the login route
 * handler (called directly, no server; test/support/sessionTestEnv.ts). The limit's arithmetic
 * alone: loginLimit.test.ts.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { PASSWORD, sessionTestEnv } from "@/test/support/sessionTestEnv";

const { db, freshIp, newOperator, logIn, close } = await sessionTestEnv("authLimit");

afterAll(close);

describe("login limit (per IP, per email and IP, per email; failures only)", () => {
  it("5 wrong passwords for an email from one address, then 429 there with Retry-After and when to retry, even with the right password; another address gets in", async () => {
    const operator = await newOperator("admin");
    const ip = freshIp();
    for (let i = 0; i < 5; i++) expect((await logIn(operator.email, `wrong password ${i}`, { ip })).status).toBe(401);
    const refused = await logIn(operator.email, PASSWORD, { ip });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    // sliding_window: failures late in one 15-min window still weigh fully at the start of the
    // next, so the wait can reach the rest of this window plus 1/5 of the next: at most 1080 s.
    expect(retryAfter).toBeLessThanOrEqual(900 + 900 / 5);
    expect(refused.body.detail).toMatch(
      new RegExp(`Try again in ${retryAfter} s \\(at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)`),
    );
    expect(refused.headers.get("set-cookie")).toBeNull();
    expect(await db.getDb().session.count({ where: { operatorId: operator.id } })).toBe(0);
    // Knowing the email is not enough to lock the operator out: from an address without failures, the right password works.
    expect((await logIn(operator.email, PASSWORD, { ip: freshIp() })).status).toBe(200);
  });

  it("50 failures for an email spread over 10 addresses reach its ceiling: an address that failed is refused, one without failures still gets in", async () => {
    const operator = await newOperator("viewer");
    const guessers = Array.from({ length: 10 }, () => freshIp());
    for (const ip of guessers)
      for (let i = 0; i < 5; i++) expect((await logIn(operator.email, `guess ${i}`, { ip })).status).toBe(401);
    const once = freshIp();
    expect((await logIn(operator.email, "one more guess", { ip: once })).status).toBe(401);
    expect((await logIn(operator.email, PASSWORD, { ip: once })).status).toBe(429);
    expect((await logIn(operator.email, PASSWORD, { ip: freshIp() })).status).toBe(200);
  });

  it("10 failures from one IP (any emails), then 429 from that IP only", async () => {
    const ip = freshIp();
    for (let i = 0; i < 10; i++)
      expect(
        (await logIn(`nobody-${i}-${randomBytes(3).toString("hex")}@example.com`, "wrong password", { ip })).status,
      ).toBe(401);
    const operator = await newOperator("viewer");
    expect((await logIn(operator.email, PASSWORD, { ip })).status).toBe(429);
    expect((await logIn(operator.email, PASSWORD, { ip: freshIp() })).status).toBe(200);
  });

  it("successful logins are not counted", async () => {
    const operator = await newOperator("viewer");
    const ip = freshIp();
    for (let i = 0; i < 12; i++) expect((await logIn(operator.email, PASSWORD, { ip })).status).toBe(200);
  });

  it("parallel guesses cannot overrun the limit: of 20 at once, exactly 5 are checked", async () => {
    const operator = await newOperator("admin");
    const ip = freshIp();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => logIn(operator.email, `parallel guess ${i}`, { ip })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
  });
});
