/**
 * The JWT callers of the identity part (identityCases.ts): one ES256 and one RS256 (2048-bit) key
 * pair made by jose, their public halves as the tenant's inline JWKS, and tokens as an identity
 * provider issues them (`iss`, `aud`, `sub`, `iat`, `exp` one hour ahead, a `jti` each).
 *
 * - `reused`: one token per algorithm, sent on every request, as a client holding its token does:
 *   after the first, Sluice's verified-token cache answers it (lib/policy/identity/jwtVerifier.ts);
 * - `pool(alg)`: UNCACHED_POOL distinct tokens of the same subject, sent in turn
 *   (`cyclingHeader`), so every request pays a signature check: the verifier's cache is cleared
 *   whole when it holds VERIFIED_CACHE_SIZE tokens, so between two uses of one token of a pool one
 *   larger than that, the cache has been cleared (see `UNCACHED_POOL`). Made once per process:
 *   signing 10,001 RS256 tokens takes seconds.
 */
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { VERIFIED_CACHE_SIZE } from "../../../lib/policy/identity/jwtVerifier";

export const JWT_ISSUER = "https://id.bench.example.com/";
export const JWT_AUDIENCE = "orders-api";
export const JWT_SUBJECT = "bench-user";
export type BenchAlg = "ES256" | "RS256";
export const BENCH_ALGS: readonly BenchAlg[] = ["ES256", "RS256"];

/**
 * Distinct tokens per uncached row: one more than the cache holds. A token comes back after
 * VERIFIED_CACHE_SIZE other tokens were verified and stored, and a cache that never exceeds that
 * size must have been cleared in between, so no request of the row is answered from it.
 */
export const UNCACHED_POOL = VERIFIED_CACHE_SIZE + 1;

interface Signer {
  jwk: Record<string, unknown>;
  key: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
}

const signers = new Map<BenchAlg, Promise<Signer>>();
const pools = new Map<BenchAlg, Promise<string[]>>();

function signer(alg: BenchAlg): Promise<Signer> {
  let made = signers.get(alg);
  if (!made) {
    made = (async () => {
      const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
      const jwk = { ...(await exportJWK(publicKey)), kid: alg.toLowerCase(), alg, use: "sig" };
      return { jwk, key: privateKey };
    })();
    signers.set(alg, made);
  }
  return made;
}

async function sign(alg: BenchAlg, jti: string): Promise<string> {
  const { key } = await signer(alg);
  return new SignJWT({ jti })
    .setProtectedHeader({ alg, kid: alg.toLowerCase() })
    .setIssuer(JWT_ISSUER)
    .setAudience(JWT_AUDIENCE)
    .setSubject(JWT_SUBJECT)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(key);
}

/** The tenant's `jwt` identity settings: both public keys inline. */
export async function benchJwtSettings() {
  const keys = await Promise.all(BENCH_ALGS.map(async (alg) => (await signer(alg)).jwk));
  return { issuer: JWT_ISSUER, audience: JWT_AUDIENCE, jwks: { keys } };
}

export function reusedToken(alg: BenchAlg): Promise<string> {
  return sign(alg, `reused-${alg}`);
}

export function tokenPool(alg: BenchAlg): Promise<string[]> {
  let pool = pools.get(alg);
  if (!pool) {
    pool = Promise.all(Array.from({ length: UNCACHED_POOL }, (_, i) => sign(alg, `${alg}-${i}`)));
    pools.set(alg, pool);
  }
  return pool;
}

/**
 * An autocannon `setupRequest` that sets header `name` to `prefix` + the next of `values`, in turn
 * over every connection of the run (one counter for all of them: autocannon's own `requests` list
 * restarts at its head on each connection, so 100 connections would send the same values in step).
 */
export function cyclingHeader(name: string, prefix: string, values: readonly string[]) {
  let next = 0;
  return <R extends { headers?: object }>(request: R): R => {
    const value = values[next]!;
    next = next + 1 === values.length ? 0 : next + 1;
    return { ...request, headers: { ...request.headers, [name]: prefix + value } };
  };
}
