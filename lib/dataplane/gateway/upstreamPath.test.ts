import { describe, expect, it } from "vitest";
import { upstreamPath } from "./upstreamTarget";

describe("upstreamPath", () => {
  it.each([
    // [upstream URL's path prefix, what follows /api/v1, the upstream's request target]
    ["/v2", "/orders/42?x=1", "/v2/orders/42?x=1"],
    ["/v2", "/", "/v2/"],
    // /api/v1 itself is the upstream URL itself (<upstream>), not <upstream>/.
    ["/v2", "", "/v2"],
    ["/v2", "?x=1", "/v2?x=1"],
    ["", "", "/"],
    ["", "?x=1", "/?x=1"],
    ["", "/orders/42", "/orders/42"],
  ])("prefix %j, path %j: %j", (prefix, path, expected) => {
    expect(upstreamPath(prefix, path)).toBe(expected);
  });
});
