import { describe, expect, it } from "vitest";
import { VERIFIED_CACHE_SIZE } from "../../../lib/policy/identity/jwtVerifier";
import { cyclingHeader, UNCACHED_POOL } from "./benchTokens";

describe("cyclingHeader", () => {
  it("sets the header to the next value on every request, one turn over all connections, and keeps the other headers", () => {
    const setup = cyclingHeader("authorization", "Bearer ", ["a", "b", "c"]);
    const request: { path: string; headers: Record<string, string> } = {
      path: "/orders/1",
      headers: { host: "api.example.com" },
    };
    const sent = Array.from({ length: 7 }, () => setup(request));
    expect(sent.map((r) => r.headers.authorization)).toEqual([
      "Bearer a",
      "Bearer b",
      "Bearer c",
      "Bearer a",
      "Bearer b",
      "Bearer c",
      "Bearer a",
    ]);
    expect(sent[0]).toEqual({ path: "/orders/1", headers: { host: "api.example.com", authorization: "Bearer a" } });
  });
});

describe("UNCACHED_POOL", () => {
  it("outgrows the verified-token cache, so a token comes back only after the cache was cleared", () => {
    expect(UNCACHED_POOL).toBe(VERIFIED_CACHE_SIZE + 1);
  });
});
