import { afterEach, describe, expect, it, vi } from "vitest";
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
    expect(await response.json()).toEqual({ type: "about:blank", title: "Internal Server Error", status: 500, detail: "An internal error occurred." });

    const logged = log.mock.calls.flat().join(" ");
    expect(logged).toContain("TypeError: cannot read");
    expect(logged).toContain("sluice_Ab3dEf7h_[redacted]");
    for (const secret of [KEY, "hunter2-hunter2", "secretPlace", "/srv/sluice"]) expect(logged).not.toContain(secret);
  });

  it("shows an AppError's own message and field errors, and logs nothing", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const response = problemFromError(new AppError("invalid", "The input is invalid (name: too long).", { errors: { name: ["too long"] } }));
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ type: "about:blank", title: "Unprocessable Content", status: 422, detail: "The input is invalid (name: too long).", errors: { name: ["too long"] } });
    expect(log).not.toHaveBeenCalled();
  });
});
