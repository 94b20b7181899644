import { describe, expect, it } from "vitest";
import { TRUST_NO_PROXY } from "../../config/trustProxy";
import { AppError } from "../../http/errors";
import { SESSION_COOKIE } from "./sessionCookie";
import { assertSameOriginLogin, assertSameOriginWrite, requestSession, sessionActor } from "./sessionResolver";

const URL_ = "http://sluice.test/api/admin/tenants";
const SAME = { origin: "http://sluice.test" };
const OTHER = { origin: "http://evil.test" };

function outcome(run: () => void): string {
  try {
    run();
    return "ok";
  } catch (error) {
    return error instanceof AppError ? `${error.code} ${error.status}` : "other";
  }
}

describe("assertSameOriginWrite (cookie-carried requests)", () => {
  it.each([
    ["GET without Origin", "GET", {}, "ok"],
    ["GET from another origin (reads are not CSRF targets)", "GET", OTHER, "ok"],
    ["POST from this origin", "POST", SAME, "ok"],
    ["PUT with a same-origin Referer only", "PUT", { referer: "http://sluice.test/tenants/x" }, "ok"],
    ["POST without Origin or Referer", "POST", {}, "csrf 403"],
    ["PATCH from another origin", "PATCH", OTHER, "csrf 403"],
    ["DELETE from another origin", "DELETE", OTHER, "csrf 403"],
    ["PUT with Origin: null", "PUT", { origin: "null" }, "csrf 403"],
  ])("%s → %s", (_, method, headers, expected) => {
    expect(outcome(() => assertSameOriginWrite(new Request(URL_, { method, headers }), TRUST_NO_PROXY))).toBe(expected);
  });
});

describe("assertSameOriginLogin", () => {
  it.each([
    ["no Origin (a script)", {}, "ok"],
    ["this origin", SAME, "ok"],
    ["another origin", OTHER, "csrf 403"],
    ["a cross-origin Referer", { referer: "http://evil.test/login" }, "csrf 403"],
  ])("%s → %s", (_, headers, expected) => {
    expect(
      outcome(() =>
        assertSameOriginLogin(
          new Request("http://sluice.test/api/auth/login", { method: "POST", headers }),
          TRUST_NO_PROXY,
        ),
      ),
    ).toBe(expected);
  });
});

describe("requestSession", () => {
  it("is null without a session cookie (no database involved)", async () => {
    expect(await requestSession(new Request(URL_, { method: "POST", headers: { cookie: "other=1" } }))).toBeNull();
    expect(await sessionActor(new Request(URL_))).toBeNull();
  });

  it("refuses a cookie-carried cross-origin write before looking the session up", async () => {
    const request = new Request(URL_, {
      method: "POST",
      headers: { cookie: `${SESSION_COOKIE}=${"a".repeat(43)}`, ...OTHER },
    });
    await expect(requestSession(request)).rejects.toMatchObject({ code: "csrf", status: 403 });
  });

  it("a malformed cookie names no session (no database involved)", async () => {
    expect(await requestSession(new Request(URL_, { headers: { cookie: `${SESSION_COOKIE}=short` } }))).toBeNull();
  });
});
