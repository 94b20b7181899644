import { describe, expect, it } from "vitest";
import { onlyFromArgs, partsFromEnv } from "./run";

describe("onlyFromArgs", () => {
  it("reads --only a,b and --only=a,b, and nothing without the flag", () => {
    expect(onlyFromArgs(["--only", "identity,grpc"])).toBe("identity,grpc");
    expect(onlyFromArgs(["--only=grpc"])).toBe("grpc");
    expect(onlyFromArgs([])).toBeUndefined();
  });

  it("refuses the flag without a list", () => {
    expect(() => onlyFromArgs(["--only"])).toThrow(/comma-separated list/);
    expect(() => onlyFromArgs(["--only", "--other"])).toThrow(/comma-separated list/);
  });
});

describe("partsFromEnv", () => {
  it("knows the identity and grpc parts and refuses an unknown one", () => {
    expect(partsFromEnv("identity, grpc")).toEqual({ only: ["identity", "grpc"] });
    expect(() => partsFromEnv("identity,nope")).toThrow(/unknown part "nope"/);
    expect(partsFromEnv("")).toEqual({ only: undefined });
  });
});
