import { generateKeyPair, exportJWK } from "jose";
import { describe, expect, it } from "vitest";
import { parseInput } from "../../http/validate";
import { AppError } from "../../http/errors";
import { identitySchema, jwkProblem } from "./identitySchema";

/** The 422's per-field messages. */
function errorsOf(body: unknown): Record<string, string[]> {
  try {
    parseInput(identitySchema, body);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).extra.errors!;
  }
  throw new Error("expected a 422");
}

const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
const publicJwk = { ...(await exportJWK(publicKey)), kid: "k1" };
const privateJwk = await exportJWK(privateKey);

describe("identitySchema", () => {
  it("fills in the defaults", () => {
    expect(identitySchema.parse({})).toEqual({ hosts: [], apiKeys: true, jwt: null, anonymous: false });
  });

  it("stores hosts lower case, without a trailing dot, each once", () => {
    expect(identitySchema.parse({ hosts: ["API.example.com", "api.example.com.", "b.example"] }).hosts).toEqual([
      "api.example.com",
      "b.example",
    ]);
  });

  it("refuses over 100 hosts and names the bad host by its index", () => {
    const many = Array.from({ length: 101 }, (_, i) => `h${i}.example.com`);
    expect(errorsOf({ hosts: many }).hosts).toEqual(["hosts must list at most 100 hosts"]);
    expect(errorsOf({ hosts: ["ok.example", "api.example.com:443"] })["hosts.1"]![0]).toMatch(/port/);
  });

  it("defaults subjectClaim to sub and accepts a JWKS URL or inline public keys", () => {
    expect(identitySchema.parse({ jwt: { jwksUrl: "https://id.example.com/jwks.json" } }).jwt).toEqual({
      jwksUrl: "https://id.example.com/jwks.json",
      subjectClaim: "sub",
    });
    expect(identitySchema.parse({ jwt: { jwks: { keys: [publicJwk] }, tierClaim: "plan" } }).jwt?.tierClaim).toBe(
      "plan",
    );
  });

  it.each([
    ["ftp://id.example.com/jwks", /http or https/],
    ["http://169.254.169.254/jwks", /link-local/],
    ["http://[fe80::1]/jwks", /link-local/],
    ["http://[::ffff:169.254.169.254]/jwks", /link-local/],
    ["https://user:pw@id.example.com/jwks", /credentials/],
    ["jwks.json", /absolute URL/],
  ])("refuses the JWKS URL %s", (jwksUrl, message) => {
    expect(errorsOf({ jwt: { jwksUrl } })["jwt.jwksUrl"]![0]).toMatch(message);
  });

  it("needs exactly one of jwksUrl and jwks", () => {
    expect(errorsOf({ jwt: {} })["jwt.jwksUrl"]![0]).toMatch(/exactly one/);
    expect(
      errorsOf({ jwt: { jwksUrl: "https://id.example.com/j", jwks: { keys: [publicJwk] } } })["jwt.jwksUrl"]![0],
    ).toMatch(/exactly one/);
  });

  it("refuses a key set without a usable public asymmetric key", () => {
    expect(errorsOf({ jwt: { jwks: { keys: [] } } })["jwt.jwks.keys"]![0]).toMatch(/at least one key/);
    expect(errorsOf({ jwt: { jwks: { keys: [privateJwk] } } })["jwt.jwks.keys.0"]![0]).toMatch(/private/);
    expect(errorsOf({ jwt: { jwks: { keys: [{ kty: "oct", k: "c2VjcmV0" }] } } })["jwt.jwks.keys.0"]![0]).toMatch(
      /symmetric/,
    );
    expect(errorsOf({ jwt: { jwks: "x" } })["jwt.jwks"]![0]).toMatch(/key set/);
  });

  it("refuses unknown fields and wrong types with clear messages", () => {
    expect(errorsOf({ hosts: "api.example.com" }).hosts![0]).toMatch(/list/);
    expect(errorsOf({ anonymous: "yes" }).anonymous![0]).toBe("anonymous must be true or false");
    expect(Object.keys(errorsOf({ extra: 1 }))).toEqual([""]);
  });
});

describe("jwkProblem", () => {
  it.each([
    [{ kty: "RSA", n: "abc", e: "AQAB" }, null],
    [{ kty: "OKP", crv: "Ed25519", x: "abc" }, null],
    [{ kty: "EC", crv: "secp256k1", x: "a", y: "b" }, /curve/],
    [{ kty: "RSA", n: "abc", e: "AQAB", use: "enc" }, /signature/],
    [{ kty: "RSA", n: "abc", e: "AQAB", alg: "HS256" }, /alg/],
    [{ kty: "RSA" }, /n and e/],
    [{ kty: "XYZ" }, /kty/],
  ])("%j", (jwk, expected) => {
    const problem = jwkProblem(jwk);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });
});
