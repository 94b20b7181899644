import { describe, expect, it } from "vitest";
import {
  API_CONTENT_SECURITY_POLICY,
  COMMON_SECURITY_HEADERS,
  createNonce,
  pageContentSecurityPolicy,
  staticHeaderRules,
  STRICT_TRANSPORT_SECURITY,
} from "./securityHeaders.js";

/** directive name → its source list. */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

const NONCE = "AAECAwQFBgcICQoLDA0ODw==";

describe("pageContentSecurityPolicy", () => {
  const policy = directives(pageContentSecurityPolicy(NONCE));

  it("runs only scripts that carry the nonce (and what they load), never inline or eval'd code", () => {
    expect(policy.get("script-src")).toEqual(["'self'", `'nonce-${NONCE}'`, "'strict-dynamic'"]);
  });

  it("forbids plugins, framing, a foreign <base> and foreign form targets", () => {
    expect(policy.get("object-src")).toEqual(["'none'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(policy.get("base-uri")).toEqual(["'self'"]);
    expect(policy.get("form-action")).toEqual(["'self'"]);
    expect(policy.get("default-src")).toEqual(["'self'"]);
    expect(policy.get("connect-src")).toEqual(["'self'"]);
  });

  it("wants the nonce on <style> elements but allows style attributes (React renders them)", () => {
    expect(policy.get("style-src-elem")).toEqual(["'self'", `'nonce-${NONCE}'`]);
    expect(policy.get("style-src")).toEqual(["'self'", `'nonce-${NONCE}'`]);
    expect(policy.get("style-src-attr")).toEqual(["'unsafe-inline'"]);
  });

  it("allows eval and inline <style> in development only", () => {
    const dev = directives(pageContentSecurityPolicy(NONCE, { development: true }));
    expect(dev.get("script-src")).toEqual(["'self'", `'nonce-${NONCE}'`, "'strict-dynamic'", "'unsafe-eval'"]);
    expect(dev.get("style-src-elem")).toEqual(["'self'", "'unsafe-inline'"]);
    expect(pageContentSecurityPolicy(NONCE)).not.toMatch(/unsafe-eval|style-src-elem[^;]*unsafe-inline/);
  });

  it.each(["", "short", "abc'; script-src *", `${NONCE} 'unsafe-inline'`])(
    "refuses a nonce that is not base64 of 12+ bytes: %j",
    (bad) => {
      expect(() => pageContentSecurityPolicy(bad)).toThrow(/nonce/);
    },
  );
});

describe("createNonce", () => {
  it("is 16 random bytes in base64, different every time", () => {
    const nonces = Array.from({ length: 100 }, createNonce);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    expect(new Set(nonces).size).toBe(100);
    expect(() => pageContentSecurityPolicy(nonces[0]!)).not.toThrow();
  });
});

describe("staticHeaderRules", () => {
  const rules = staticHeaderRules();
  const headersFor = (source: string, withHas: boolean) =>
    Object.fromEntries(
      rules
        .filter((r) => r.source === source && !!r.has === withHas)
        .flatMap((r) => r.headers.map((h) => [h.key, h.value])),
    );

  it("sends nosniff, a referrer policy and X-Frame-Options on every response", () => {
    expect(headersFor("/:path*", false)).toEqual(COMMON_SECURITY_HEADERS);
    expect(COMMON_SECURITY_HEADERS).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "same-origin",
      "X-Frame-Options": "DENY",
    });
  });

  it("gives API answers a policy that allows nothing", () => {
    expect(headersFor("/api/:path*", false)).toEqual({ "Content-Security-Policy": API_CONTENT_SECURITY_POLICY });
    expect(directives(API_CONTENT_SECURITY_POLICY)).toEqual(
      new Map([
        ["default-src", ["'none'"]],
        ["frame-ancestors", ["'none'"]],
      ]),
    );
  });

  it("sends HSTS only when the request came over HTTPS", () => {
    const hsts = rules.filter((r) => r.headers.some((h) => h.key === "Strict-Transport-Security"));
    expect(hsts).toHaveLength(1);
    expect(hsts[0]!.headers).toEqual([{ key: "Strict-Transport-Security", value: STRICT_TRANSPORT_SECURITY }]);
    const pattern = new RegExp(`^${hsts[0]!.has![0]!.value}$`);
    expect(["https", "https, http"].map((v) => pattern.test(v))).toEqual([true, true]);
    expect(["http", "http, https", "httpsx", ""].map((v) => pattern.test(v))).toEqual([false, false, false, false]);
  });

  it("sets no page Content-Security-Policy statically (proxy.ts sets it, with its nonce)", () => {
    const pageRules = rules.filter((r) => r.source !== "/api/:path*");
    expect(pageRules.flatMap((r) => r.headers.map((h) => h.key))).not.toContain("Content-Security-Policy");
  });
});
