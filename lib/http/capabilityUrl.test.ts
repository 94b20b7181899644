import { describe, expect, it } from "vitest";
import { capabilityUrlHint } from "./capabilityUrl";

describe("capabilityUrlHint", () => {
  it.each([
    ["https://hooks.slack.com/services/T000/B000/XXXXabcd", "https://hooks.slack.com/…abcd"],
    ["https://hooks.example.com:8443/sluice?token=s3cretvalue", "https://hooks.example.com:8443/…alue"],
    ["http://10.0.0.5:9000/", "http://10.0.0.5:9000"],
    ["https://hooks.example.com", "https://hooks.example.com"],
    ["https://hooks.example.com/abc", "https://hooks.example.com/…"],
    ["HTTPS://Hooks.Example.com/services/abcdefgh", "https://hooks.example.com/…efgh"],
    ["not a url at all", "…"],
    ["mailto:someone@example.com", "…"],
  ])("%s -> %s", (url, hint) => {
    expect(capabilityUrlHint(url)).toBe(hint);
  });

  it("is idempotent", () => {
    for (const url of ["https://hooks.slack.com/services/T000/B000/XXXXabcd", "https://a.example/abc", "x"]) {
      const hint = capabilityUrlHint(url);
      expect(capabilityUrlHint(hint)).toBe(hint);
    }
  });
});
