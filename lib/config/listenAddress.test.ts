import { describe, expect, it } from "vitest";
import { listenHost, openTrustWarning } from "./listenAddress.js";

describe("listenHost: where npm start listens", () => {
  it.each([
    [{}, "0.0.0.0"],
    [{ HOSTNAME: "10.0.0.7" }, "10.0.0.7"],
    [{ SLUICE_HOST: "127.0.0.1", HOSTNAME: "box-1" }, "127.0.0.1"],
    [{ SLUICE_HOST: "", HOSTNAME: "::1" }, "::1"],
  ])("%j: %s", (env, host) => {
    expect(listenHost(env)).toBe(host);
  });
});

describe("openTrustWarning: a hop count on an address others can reach", () => {
  it.each([
    ["1", "0.0.0.0"],
    ["2", "10.0.0.7"],
    [" 1 ", "::"],
  ])("SLUICE_TRUST_PROXY=%j on %s is warned of, with the two ways out", (trust, host) => {
    expect(openTrustWarning(trust, host)).toMatch(/SLUICE_HOST=127\.0\.0\.1.*SLUICE_TRUST_PROXY=10\.0\.0\.5/);
  });

  it.each([
    [undefined, "0.0.0.0"],
    ["0", "0.0.0.0"],
    ["10.0.0.5,10.0.0.6", "0.0.0.0"],
    ["1", "127.0.0.1"],
    ["1", "127.1.2.3"],
    ["1", "::1"],
    ["1", "localhost"],
  ])("SLUICE_TRUST_PROXY=%j on %s: nothing to say", (trust, host) => {
    expect(openTrustWarning(trust, host)).toBeNull();
  });
});
