import { afterEach, describe, expect, it, vi } from "vitest";
import { LimiterUnavailableError } from "../limiter/types";
import { AppError } from "./errors";
import { problemFromError } from "./problem";

const KEY = "sluice_Ab3dEf7h_Q1w2E3r4T5y6U7i8O9p0AsD";

afterEach(() => vi.restoreAllMocks());

describe("problemFromError", () => {
  it("answers an unexpected error with a bare 500 and logs it with secrets masked", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const error = new TypeError(`cannot read "x" of the key ${KEY} (password: "hunter2-hunter2")`);
    error.stack = `TypeError: ...\n    at secretPlace (/srv/sluice/lib/apiKeys/keyStore.ts:12:3)`;
    const response = problemFromError(error);

    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toEqual({
      type: "about:blank",
      title: "Internal Server Error",
      status: 500,
      detail: "An internal error occurred.",
    });

    const logged = log.mock.calls.flat().join(" ");
    expect(logged).toContain("TypeError: cannot read");
    expect(logged).toContain("sluice_Ab3dEf7h_[redacted]");
    for (const secret of [KEY, "hunter2-hunter2", "secretPlace", "/srv/sluice"]) expect(logged).not.toContain(secret);
  });

  it("shows an AppError's own message and field errors, and logs nothing", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = problemFromError(
      new AppError("invalid", "The input is invalid (name: too long).", { errors: { name: ["too long"] } }),
    );
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      type: "about:blank",
      title: "Unprocessable Content",
      status: 422,
      detail: "The input is invalid (name: too long).",
      errors: { name: ["too long"] },
    });
    expect(log).not.toHaveBeenCalled();
  });

  it("answers a Redis timeout that reached a route as 503 limiter_unavailable with Retry-After, and logs nothing", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = problemFromError(
      new LimiterUnavailableError("redis did not answer within 100 ms", { kind: "timeout" }),
    );
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.json()).toMatchObject({ status: 503, title: "Service Unavailable" });
    expect(log).not.toHaveBeenCalled();
  });

  it("recognises an AppError made by another copy of the module (Next's bundles and the data plane's each carry one)", async () => {
    vi.resetModules();
    const other = await import("./errors");
    expect(other.AppError).not.toBe(AppError);
    const response = problemFromError(new other.AppError("not_found", "No such thing."));
    expect(response.status).toBe(404);
    expect(new other.AppError("invalid", "x")).toBeInstanceOf(AppError);
    expect(new Error("x")).not.toBeInstanceOf(AppError);
  });
});
