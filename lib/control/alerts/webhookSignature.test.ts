import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret, secretHint, signatureHeader, verifyWebhookSignature } from "./webhookSignature";

const NOW = 1_795_000_000_000;

describe("webhook signatures", () => {
  it("t=<seconds>,v1=<hex HMAC-SHA256 of '<t>.<body>'>, as a receiver recomputes it by hand", () => {
    const header = signatureHeader("whsec_k", '{"x":1}', NOW + 999);
    const t = Math.floor(NOW / 1000);
    expect(header).toBe(`t=${t},v1=${createHmac("sha256", "whsec_k").update(`${t}.{"x":1}`).digest("hex")}`);
  });

  it("verifies its own signature and refuses another body, secret, a stale time or a malformed header", () => {
    const header = signatureHeader("whsec_k", "body", NOW);
    expect(verifyWebhookSignature("whsec_k", "body", header, NOW + 60_000)).toBe(true);
    expect(verifyWebhookSignature("whsec_k", "body!", header, NOW)).toBe(false);
    expect(verifyWebhookSignature("whsec_other", "body", header, NOW)).toBe(false);
    expect(verifyWebhookSignature("whsec_k", "body", header, NOW + 301_000)).toBe(false);
    expect(verifyWebhookSignature("whsec_k", "body", "v1=abc", NOW)).toBe(false);
    expect(verifyWebhookSignature("whsec_k", "body", null, NOW)).toBe(false);
  });

  it("accepts any one matching v1 of several (rotation)", () => {
    const t = Math.floor(NOW / 1000);
    const good = signatureHeader("whsec_k", "b", NOW).split("v1=")[1];
    expect(verifyWebhookSignature("whsec_k", "b", `t=${t},v1=${"0".repeat(64)},v1=${good}`, NOW)).toBe(true);
  });

  it("secrets are whsec_ + 43 base64url characters, hinted by their last 4", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(generateWebhookSecret()).not.toBe(secret);
    expect(secretHint(secret)).toBe(`whsec_…${secret.slice(-4)}`);
  });
});
