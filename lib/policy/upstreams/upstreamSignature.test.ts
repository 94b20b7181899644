import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  generateUpstreamSecret,
  signUpstreamRequest,
  upstreamSecretHint,
  verifyUpstreamSignature,
} from "./upstreamSignature";

const NOW = 1_795_000_000_000;
const REQUEST = { method: "POST", target: "/v2/orders/42?x=1", keyId: "KeyAAAAA" };

describe("upstream request signatures", () => {
  it("t=<seconds>,v1=<hex HMAC-SHA256 of '<t>\\n<METHOD>\\n<target>\\n<key id>'>, as an upstream recomputes it by hand", () => {
    const t = Math.floor(NOW / 1000);
    const expected = createHmac("sha256", "upsec_k").update(`${t}\nPOST\n/v2/orders/42?x=1\nKeyAAAAA`).digest("hex");
    expect(signUpstreamRequest("upsec_k", REQUEST, NOW + 999)).toBe(`t=${t},v1=${expected}`);
  });

  it("verifies its own signature; refuses another method, target, key, secret, a stale time or a bad header", () => {
    const header = signUpstreamRequest("upsec_k", REQUEST, NOW);
    expect(verifyUpstreamSignature("upsec_k", header, REQUEST, NOW + 299_000)).toBe(true);
    expect(verifyUpstreamSignature("upsec_k", header, { ...REQUEST, method: "DELETE" }, NOW)).toBe(false);
    expect(verifyUpstreamSignature("upsec_k", header, { ...REQUEST, target: "/v2/orders/43?x=1" }, NOW)).toBe(false);
    expect(verifyUpstreamSignature("upsec_k", header, { ...REQUEST, keyId: "KeyBBBBB" }, NOW)).toBe(false);
    expect(verifyUpstreamSignature("upsec_other", header, REQUEST, NOW)).toBe(false);
    expect(verifyUpstreamSignature("upsec_k", header, REQUEST, NOW + 301_000)).toBe(false);
    expect(verifyUpstreamSignature("upsec_k", header, REQUEST, NOW - 301_000)).toBe(false);
    expect(verifyUpstreamSignature("upsec_k", "upsec_k", REQUEST, NOW)).toBe(false);
    expect(verifyUpstreamSignature("upsec_k", undefined, REQUEST, NOW)).toBe(false);
  });

  it("secrets are upsec_ + 43 base64url characters, hinted by their last 4", () => {
    const secret = generateUpstreamSecret();
    expect(secret).toMatch(/^upsec_[A-Za-z0-9_-]{43}$/);
    expect(generateUpstreamSecret()).not.toBe(secret);
    expect(upstreamSecretHint(secret)).toBe(`upsec_…${secret.slice(-4)}`);
  });
});
