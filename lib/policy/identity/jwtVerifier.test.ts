/**
 * The JWT verifier against tokens made by jose (ES256 and RS256 key pairs generated per run): each
 * token defect is a 401 reason, never a subject; and the JWKS URL form's cache: an unknown kid
 * fetches again at most once a minute, and a set that cannot be fetched keeps its last good keys.
 * Time is a fake clock (jose's own cooldown reads Date.now: faked too), fetch a counted fake.
 */
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey, type JWK } from "jose";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createJwtVerifier, type JwtVerdict } from "./jwtVerifier";
import { identitySchema } from "./identitySchema";

const ISSUER = "https://id.example.com/";
const AUDIENCE = "orders-api";
const T0 = Date.UTC(2026, 10, 27, 12, 0, 0);

interface Signer {
  alg: string;
  kid: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function signer(alg: "ES256" | "RS256", kid: string): Promise<Signer> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg } };
}

const es = await signer("ES256", "es-1");
const rs = await signer("RS256", "rs-1");
const stranger = await signer("ES256", "es-2");

function token(
  s: Signer,
  claims: Record<string, unknown> = {},
  { iat = T0 / 1000, exp = T0 / 1000 + 300, kid = s.kid }: { iat?: number; exp?: number | null; kid?: string } = {},
): Promise<string> {
  const jwt = new SignJWT({ sub: "alice", ...claims })
    .setProtectedHeader({ alg: s.alg, kid })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat);
  if (exp !== null) jwt.setExpirationTime(exp);
  return jwt.sign(s.privateKey);
}

const settings = (jwt: Record<string, unknown>) => identitySchema.parse({ jwt }).jwt!;
const inline = (extra: Record<string, unknown> = {}) =>
  createJwtVerifier(settings({ issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [es.jwk, rs.jwk] }, ...extra }), {
    now: () => T0,
  });

const refused = (verdict: JwtVerdict, reason: RegExp) => {
  expect(verdict.ok).toBe(false);
  expect(verdict.ok === false && !verdict.unavailable && verdict.reason).toMatch(reason);
};

describe("a token signed by a key of the set", () => {
  it.each([es, rs])("verifies ($alg) and names its subject", async (s) => {
    expect(await inline().verify(await token(s))).toEqual({ ok: true, subject: "alice" });
  });

  it("reads the subject and the tier from the claims the tenant names", async () => {
    const v = inline({ subjectClaim: "user_id", tierClaim: "plan" });
    expect(await v.verify(await token(es, { user_id: "u-42", plan: "pro" }))).toEqual({
      ok: true,
      subject: "u-42",
      tier: "pro",
    });
  });

  it("allows 30 s of clock skew on exp and nbf", async () => {
    expect((await inline().verify(await token(es, {}, { exp: T0 / 1000 - 20 }))).ok).toBe(true);
    expect((await inline().verify(await token(es, { nbf: T0 / 1000 + 20 }))).ok).toBe(true);
  });
});

describe("the verified-token cache", () => {
  it("never outlives the token's exp (plus the leeway)", async () => {
    let now = T0;
    const v = createJwtVerifier(settings({ jwks: { keys: [es.jwk] } }), { now: () => now });
    const t = await token(es, {}, { exp: T0 / 1000 + 10 });
    expect((await v.verify(t)).ok).toBe(true);
    now = T0 + 20_000;
    expect((await v.verify(t)).ok).toBe(true);
    now = T0 + 41_000;
    refused(await v.verify(t), /expired/);
  });

  it("is keyed by the whole token: the same claims with another signature are checked again", async () => {
    const v = inline();
    const t = await token(es);
    expect((await v.verify(t)).ok).toBe(true);
    const [header, payload] = t.split(".");
    refused(await v.verify(`${header}.${payload}.${Buffer.from("forged").toString("base64url")}`), /signature/);
  });
});

describe("each defect is refused with its reason", () => {
  it("expired (beyond the leeway)", async () => {
    refused(await inline().verify(await token(es, {}, { exp: T0 / 1000 - 31 })), /expired/);
  });

  it("not yet valid", async () => {
    refused(await inline().verify(await token(es, { nbf: T0 / 1000 + 60 })), /not valid yet/);
  });

  it("wrong issuer", async () => {
    const other = await new SignJWT({ sub: "alice" })
      .setProtectedHeader({ alg: "ES256", kid: es.kid })
      .setIssuer("https://evil.example/")
      .setAudience(AUDIENCE)
      .setExpirationTime(T0 / 1000 + 300)
      .sign(es.privateKey);
    refused(await inline().verify(other), /issuer/);
  });

  it("wrong audience", async () => {
    const other = await new SignJWT({ sub: "alice" })
      .setProtectedHeader({ alg: "ES256", kid: es.kid })
      .setIssuer(ISSUER)
      .setAudience("billing-api")
      .setExpirationTime(T0 / 1000 + 300)
      .sign(es.privateKey);
    refused(await inline().verify(other), /audience/);
  });

  it("alg none", async () => {
    const unsecured = new UnsecuredJWT({ sub: "alice", iss: ISSUER, aud: AUDIENCE, exp: T0 / 1000 + 300 }).encode();
    refused(await inline().verify(unsecured), /algorithm/);
  });

  it("HS256, even when its secret is a public key's bytes", async () => {
    const secret = new TextEncoder().encode(JSON.stringify(es.jwk));
    const hs = await new SignJWT({ sub: "alice" })
      .setProtectedHeader({ alg: "HS256", kid: es.kid })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime(T0 / 1000 + 300)
      .sign(secret);
    refused(await inline().verify(hs), /algorithm/);
  });

  it("unknown kid", async () => {
    refused(await inline().verify(await token(stranger)), /kid/);
  });

  it("signed by another key under a known kid", async () => {
    refused(await inline().verify(await token(stranger, {}, { kid: es.kid })), /signature/);
  });

  it("tampered payload", async () => {
    const [header, , signature] = (await token(es)).split(".");
    const payload = Buffer.from(
      JSON.stringify({ sub: "mallory", iss: ISSUER, aud: AUDIENCE, exp: T0 / 1000 + 300 }),
    ).toString("base64url");
    refused(await inline().verify(`${header}.${payload}.${signature}`), /signature/);
  });

  it("missing subject, or one that is not text of 1 to 256 characters", async () => {
    refused(await inline().verify(await token(es, { sub: undefined })), /sub claim must be text/);
    refused(await inline().verify(await token(es, { sub: 42 })), /sub claim must be text/);
    refused(await inline().verify(await token(es, { sub: "" })), /sub claim must be text/);
    refused(await inline().verify(await token(es, { sub: "x".repeat(257) })), /sub claim must be text/);
  });

  it("over 8 KiB", async () => {
    refused(await inline().verify(await token(es, { padding: "x".repeat(8_192) })), /8 KiB/);
  });

  it("not a JWT at all", async () => {
    refused(await inline().verify("not-a-token"), /malformed/);
  });
});

describe("a JWKS URL", () => {
  const URL_ = "https://id.example.com/.well-known/jwks.json";
  let now = T0;
  let keys: JWK[] = [];
  let down = false;
  let fetches = 0;
  const fakeFetch = (async () => {
    fetches += 1;
    if (down) throw new TypeError("fetch failed");
    return Response.json({ keys });
  }) as unknown as typeof fetch;
  const remote = () =>
    createJwtVerifier(settings({ jwksUrl: URL_ }), {
      now: () => now,
      fetch: fakeFetch,
      resolve: async () => ["203.0.113.7"],
    });
  const at = (ms: number) => {
    now = ms;
    vi.setSystemTime(ms);
  };

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    at(T0);
    keys = [es.jwk];
    down = false;
    fetches = 0;
  });
  afterEach(() => vi.useRealTimers());

  it("is fetched once and cached", async () => {
    const v = remote();
    const t = await token(es);
    for (let i = 0; i < 3; i++) expect((await v.verify(t)).ok).toBe(true);
    expect(fetches).toBe(1);
  });

  it("is fetched again for an unknown kid at most once a minute", async () => {
    const v = remote();
    expect((await v.verify(await token(es))).ok).toBe(true);
    at(T0 + 61_000);
    const unknown = await token(stranger, {}, { iat: now / 1000, exp: now / 1000 + 300 });
    refused(await v.verify(unknown), /kid/);
    expect(fetches).toBe(2);
    for (let i = 0; i < 5; i++) refused(await v.verify(unknown), /kid/);
    expect(fetches).toBe(2);
    // The IdP publishes the new key: found at the next fetch, a minute after the last.
    keys = [es.jwk, stranger.jwk];
    at(T0 + 122_000);
    expect((await v.verify(await token(stranger, {}, { iat: now / 1000, exp: now / 1000 + 300 }))).ok).toBe(true);
    expect(fetches).toBe(3);
  });

  it("keeps its last good keys when it cannot be fetched, and asks at most once a minute meanwhile", async () => {
    const v = remote();
    expect((await v.verify(await token(es))).ok).toBe(true);
    down = true;
    // Past jose's 10-minute cache age: every verification wants a fetch; the floor allows one a minute.
    for (let s = 0; s < 5; s++) {
      at(T0 + 11 * 60_000 + s * 20_000);
      const t = await token(es, {}, { iat: now / 1000, exp: now / 1000 + 300 });
      expect(await v.verify(t)).toEqual({ ok: true, subject: "alice" });
    }
    expect(fetches).toBe(3); // the first, then at 11:00 and at 12:00 (20 s steps)
    refused(await v.verify(await token(stranger, {}, { iat: now / 1000, exp: now / 1000 + 300 })), /kid/);
  });

  it("never fetched and unreachable: unavailable (a 503), not a bad token", async () => {
    down = true;
    const verdict = await remote().verify(await token(es));
    expect(verdict).toMatchObject({ ok: false, unavailable: true });
  });

  it("is not fetched from a name that resolves to a link-local address", async () => {
    const v = createJwtVerifier(settings({ jwksUrl: URL_ }), {
      now: () => now,
      fetch: fakeFetch,
      resolve: async () => ["169.254.169.254"],
    });
    expect(await v.verify(await token(es))).toMatchObject({ ok: false, unavailable: true });
    expect(fetches).toBe(0);
  });
});
