import { describe, expect, it } from "vitest";
import { AppError } from "../../http/errors";
import { BEARER_FAILURE_WINDOW_MS, BearerFailures } from "./bearerFailures";

const T0 = 1_700_000_000_000;

function refusal(fn: () => void): AppError | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error as AppError;
  }
}

describe("BearerFailures", () => {
  it("lets an address try until it has sent `limit` wrong tokens, then answers 429 with Retry-After; other addresses are not affected", () => {
    let now = T0;
    const failures = new BearerFailures(3, () => now);
    for (let i = 0; i < 3; i++) {
      expect(refusal(() => failures.assertMayTry("203.0.113.9"))).toBeNull();
      failures.recordFailure("203.0.113.9");
      now += 1_000;
    }
    const refused = refusal(() => failures.assertMayTry("203.0.113.9"));
    expect(refused).toMatchObject({ code: "rate_limited", status: 429 });
    expect(Number(refused!.extra.headers!["Retry-After"])).toBeGreaterThan(0);
    expect(refusal(() => failures.assertMayTry("203.0.113.10"))).toBeNull();
    // The failures age out with the window.
    now += 2 * BEARER_FAILURE_WINDOW_MS;
    expect(refusal(() => failures.assertMayTry("203.0.113.9"))).toBeNull();
  });

  it("a check charges nothing", () => {
    const failures = new BearerFailures(1, () => T0);
    for (let i = 0; i < 10; i++) expect(refusal(() => failures.assertMayTry("203.0.113.9"))).toBeNull();
  });
});
