import { describe, expect, it } from "vitest";
import { guardedAnswerHeaders, withoutSluiceCookies } from "./sluiceCookies";

describe("withoutSluiceCookies", () => {
  it.each([
    ["sluice_session=a; x=1", "x=1"],
    ["x=1;sluice_session=a;y=2", "x=1; y=2"],
    ["__Host-sluice_session=a; __Secure-sluice_other=b; x=1", "x=1"],
    ["SLUICE_SESSION=a; x=1", "x=1"],
    ["mysluice_session=a", "mysluice_session=a"],
    ["sluice_session=a", undefined],
  ])("%s -> %s", (cookie, kept) => {
    expect(withoutSluiceCookies({ cookie, accept: "*/*" })).toEqual({
      accept: "*/*",
      ...(kept === undefined ? {} : { cookie: kept }),
    });
  });

  it("leaves headers without a Cookie as they are", () => {
    const headers = { accept: "*/*" };
    expect(withoutSluiceCookies(headers)).toBe(headers);
  });
});

describe("guardedAnswerHeaders", () => {
  it("drops Set-Cookie for Sluice's names only, and adds nosniff unless present", () => {
    expect(
      guardedAnswerHeaders({ "set-cookie": ["sluice_session=x; Path=/", "a=1", " __Host-sluice_session=y"] }),
    ).toEqual({ "set-cookie": ["a=1"], "x-content-type-options": "nosniff" });
    expect(guardedAnswerHeaders({ "set-cookie": "sluice_session=x", "x-content-type-options": "nosniff" })).toEqual({
      "x-content-type-options": "nosniff",
    });
  });
});
