import { describe, expect, it } from "vitest";
import { BearerFailures } from "./bearerFailures";
import { AppError } from "../../http/errors";
import { assertMetricsAccess } from "./metricsAccess";

const TOKEN = "metrics-token-0123456789";
const req = (headers: Record<string, string> = {}) => new Request("http://test.local/api/metrics", { headers });

function statusOf(fn: () => void): number {
  try {
    fn();
    return 200;
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
}

describe("GET /api/metrics access", () => {
  it("is open without SLUICE_METRICS_TOKEN", () => {
    expect(statusOf(() => assertMetricsAccess(req(), undefined))).toBe(200);
  });

  it.each([
    ["no credentials", {}, 401],
    ["a wrong token", { authorization: "Bearer nope" }, 401],
    ["another scheme", { authorization: `Basic ${TOKEN}` }, 401],
    ["the metrics token", { authorization: `Bearer ${TOKEN}` }, 200],
  ])("with SLUICE_METRICS_TOKEN set, %s → %i", (_, headers, status) => {
    const failures = new BearerFailures(100);
    expect(statusOf(() => assertMetricsAccess(req(headers), TOKEN, () => failures))).toBe(status);
  });

  it("the 401 names the realm; wrong tokens count toward the address's bearer failures (429 after)", () => {
    const failures = new BearerFailures(2);
    let error: AppError | undefined;
    try {
      assertMetricsAccess(req(), TOKEN, () => failures);
    } catch (e) {
      error = e as AppError;
    }
    expect(error?.extra.headers?.["WWW-Authenticate"]).toBe('Bearer realm="sluice-metrics"');
    const from = (auth: string) => req({ authorization: auth, "x-forwarded-for": "203.0.113.7" });
    expect(statusOf(() => assertMetricsAccess(from("Bearer a"), TOKEN, () => failures))).toBe(401);
    expect(statusOf(() => assertMetricsAccess(from("Bearer b"), TOKEN, () => failures))).toBe(401);
    expect(statusOf(() => assertMetricsAccess(from(`Bearer ${TOKEN}`), TOKEN, () => failures))).toBe(429);
  });
});
