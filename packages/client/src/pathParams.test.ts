import { describe, expect, it } from "vitest";
import { encodeSegments, sluicePathSerializer } from "./pathParams";
import { createSluiceClient } from "./sluiceClient";

/** A fetch that records the URL asked for and answers 200 `{}`. */
function recordingFetch() {
  const urls: string[] = [];
  const fetch = async (input: RequestInfo | URL) => {
    urls.push(input instanceof Request ? input.url : String(input));
    return Response.json({});
  };
  return { urls, fetch: fetch as typeof globalThis.fetch };
}

describe("path parameters of the typed client", () => {
  it("sends a gateway path of several segments as segments (orders/42, not orders%2F42)", async () => {
    const { urls, fetch } = recordingFetch();
    const client = createSluiceClient({ baseUrl: "http://sluice.test/", apiKey: "k", fetch });
    await client.api.GET("/api/v1/{path}", { params: { path: { path: "orders/42" } } });
    await client.api.POST("/api/v1/echo/{rest}", { params: { path: { rest: "a b/c?d" } } });
    expect(urls).toEqual(["http://sluice.test/api/v1/orders/42", "http://sluice.test/api/v1/echo/a%20b/c%3Fd"]);
  });

  it("keeps every other parameter one encoded segment: a / in an id cannot reach another path", () => {
    expect(sluicePathSerializer("http://s/api/admin/keys/{keyId}/rules", { keyId: "../x/y" })).toBe(
      "http://s/api/admin/keys/..%2Fx%2Fy/rules",
    );
  });

  it("encodes each segment on its own and drops leading slashes of a catch-all value", () => {
    expect(encodeSegments("a/b c/%/42")).toBe("a/b%20c/%25/42");
    expect(sluicePathSerializer("http://s/api/v1/{path}", { path: "/orders/42" })).toBe("http://s/api/v1/orders/42");
  });
});
