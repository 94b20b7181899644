import { describe, expect, it } from "vitest";
import { fieldErrors } from "../../http/validate";
import { upstreamSchema } from "./upstreamSchema";

const errorsOf = (input: unknown) => {
  const parsed = upstreamSchema.safeParse(input);
  if (parsed.success) throw new Error(`accepted ${JSON.stringify(input)}`);
  return fieldErrors(parsed.error);
};

describe("upstreamSchema: accepted", () => {
  it.each([
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080"],
    ["https://api.example.com/", "https://api.example.com"],
    ["  https://api.example.com/v2//  ", "https://api.example.com/v2"],
    ["HTTPS://API.Example.COM:443/Base", "https://api.example.com/Base"],
    ["http://[::1]:9000/x", "http://[::1]:9000/x"],
    ["http://10.0.0.7:8080", "http://10.0.0.7:8080"],
    ["http://169.255.0.1", "http://169.255.0.1"],
    ["http://[fec0::1]", "http://[fec0::1]"],
  ])("%j is stored as %j, timeoutMs 30,000 by default, unsigned", (url, stored) => {
    expect(upstreamSchema.parse({ url })).toEqual({
      url: stored,
      timeoutMs: 30_000,
      signRequests: false,
      rotateSecret: false,
    });
  });

  it("signRequests, and rotateSecret with it", () => {
    expect(upstreamSchema.parse({ url: "http://a.test", signRequests: true })).toMatchObject({
      signRequests: true,
      rotateSecret: false,
    });
    expect(upstreamSchema.parse({ url: "http://a.test", signRequests: true, rotateSecret: true })).toMatchObject({
      signRequests: true,
      rotateSecret: true,
    });
  });

  it("timeoutMs from 100 to 120,000", () => {
    expect(upstreamSchema.parse({ url: "http://a.test", timeoutMs: 100 }).timeoutMs).toBe(100);
    expect(upstreamSchema.parse({ url: "http://a.test", timeoutMs: 120_000 }).timeoutMs).toBe(120_000);
  });
});

describe("upstreamSchema: 422 per field", () => {
  it.each([
    [{}, "url", /required/],
    [{ url: 42 }, "url", /must be text/],
    [{ url: "" }, "url", /required/],
    [{ url: "api.example.com" }, "url", /absolute URL/],
    [{ url: "/relative" }, "url", /absolute URL/],
    [{ url: "ftp://files.example.com" }, "url", /http or https/],
    [{ url: "file:///etc/passwd" }, "url", /http or https/],
    [{ url: "https://user:pw@api.example.com" }, "url", /credentials/],
    [{ url: "https://user@api.example.com" }, "url", /credentials/],
    [{ url: "https://api.example.com/?a=1" }, "url", /query/],
    [{ url: "https://api.example.com/?" }, "url", /query/],
    [{ url: "https://api.example.com/#top" }, "url", /fragment/],
    [{ url: `https://api.example.com/${"a".repeat(2100)}` }, "url", /at most 2048/],
    [{ url: "http://a.test:0" }, "url", /port 0/],
    [{ url: "http://10.0.0.1:00/x" }, "url", /port 0/],
    [{ url: "http://169.254.169.254" }, "url", /must not be link-local/],
    [{ url: "http://169.254.169.254/latest/meta-data" }, "url", /must not be link-local/],
    [{ url: "https://169.254.0.1:8443" }, "url", /must not be link-local/],
    [{ url: "http://[fe80::1]" }, "url", /must not be link-local/],
    [{ url: "http://[febf::1]:8080" }, "url", /must not be link-local/],
    [{ url: "http://[::ffff:169.254.169.254]" }, "url", /must not be link-local/],
    [{ url: "http://[::169.254.169.254]" }, "url", /must not be link-local/],
    [{ url: "http://[fd00:ec2::254]" }, "url", /must not be link-local/],
    [{ url: "http://0xa9.0xfe.0xa9.0xfe" }, "url", /must not be link-local/],
    [{ url: "http://2852039166" }, "url", /must not be link-local/],
    [{ url: "http://a.test", timeoutMs: 99 }, "timeoutMs", /at least 100/],
    [{ url: "http://a.test", timeoutMs: 120_001 }, "timeoutMs", /at most 120,000/],
    [{ url: "http://a.test", timeoutMs: 1.5 }, "timeoutMs", /whole number/],
    [{ url: "http://a.test", timeoutMs: "1000" }, "timeoutMs", /must be a number/],
    [{ url: "http://a.test", signRequests: "yes" }, "signRequests", /true or false/],
    [{ url: "http://a.test", rotateSecret: true }, "rotateSecret", /needs signRequests: true/],
    [{ url: "http://a.test", signingSecret: "upsec_mine" }, "", /signingSecret/],
  ])("%j: %s", (input, field, message) => {
    const errors = errorsOf(input);
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field]![0]).toMatch(message);
  });

  it("unknown fields are refused", () => {
    expect(
      Object.values(errorsOf({ url: "http://a.test", headers: {} }))
        .flat()
        .join(),
    ).toMatch(/headers/);
  });
});
