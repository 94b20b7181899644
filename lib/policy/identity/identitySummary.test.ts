import { describe, expect, it } from "vitest";
import { identitySchema } from "./identitySchema";
import { identitySummary } from "./identitySummary";

const summary = (input: unknown) => identitySummary(identitySchema.parse(input));

describe("identitySummary", () => {
  it("says what a client of the host must send", () => {
    expect(summary({})).toMatch(/No host/);
    expect(
      summary({
        hosts: ["api.example.com"],
        jwt: { issuer: "https://id.example.com/", jwksUrl: "https://id.example.com/jwks" },
        anonymous: true,
      }),
    ).toBe(
      "Clients of api.example.com send a JWT issued by https://id.example.com/ in Authorization: Bearer or a Sluice API key of this tenant (Authorization: Bearer or x-api-key), or nothing at all (then they are limited per IP).",
    );
    expect(summary({ hosts: ["a.example", "b.example"], apiKeys: false, anonymous: true })).toBe(
      "Clients of 2 hosts send no credential: every caller is anonymous and limited per IP.",
    );
    expect(summary({ hosts: ["a.example"], apiKeys: false })).toMatch(/cannot be called/);
  });
});
