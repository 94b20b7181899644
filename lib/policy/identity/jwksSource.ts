/**
 * Where a tenant's JWT signing keys come from (jose's key resolvers, never hand-written checks):
 * an inline key set (`createLocalJWKSet`), or a JWKS URL (`createRemoteJWKSet`) with these
 * guarantees around it:
 * - cached: fetched on first use and again when 10 minutes old (jose's `cacheMaxAge`);
 * - an unknown `kid` fetches the set again at most once a minute: jose's cooldown (60 s after
 *   the last good fetch) and, under it, a floor on every network attempt (at most one a minute,
 *   failed ones included: jose's cooldown counts only good fetches, so a down IdP met by tokens with
 *   an unknown kid would otherwise be asked on every request);
 * - a set that cannot be fetched (down, timing out after 5 s, answering other than 200 JSON, a
 *   redirect, a link-local address) keeps the last good keys: tokens signed by a key of that set
 *   still verify, for as long as the failure lasts, and the failure is logged once per outage.
 *   Never fetched yet: `JwksUnavailableError`, which admission answers 503 (Retry-After: 60), never
 *   401 (the token may well be good);
 * - a name that resolves to a link-local address is not fetched (the schema refuses a literal
 *   one: lib/policy/identity/identitySchema.ts). Redirects are not followed (jose: `redirect: manual`).
 * `now` and `fetch` are injected for tests.
 */
import { lookup } from "node:dns/promises";
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  customFetch,
  errors,
  jwksCache,
  type ExportedJWKSCache,
  type JWKSCacheInput,
  type JSONWebKeySet,
  type JWTVerifyGetKey,
} from "jose";
import { logOutage } from "../../config/plane";
import { upstreamAddressAllowed } from "../upstreams/upstreamAddress";

export const JWKS_REFETCH_FLOOR_MS = 60_000;
export const JWKS_MAX_AGE_MS = 600_000;
export const JWKS_TIMEOUT_MS = 5_000;

/** The keys cannot be had: never fetched, and the URL fails now. */
export class JwksUnavailableError extends Error {}

export interface JwksSourceOptions {
  now?: () => number;
  fetch?: typeof fetch;
  /** Whether the JWKS host's addresses are checked (false in tests that serve it on 127.0.0.1: allowed anyway). */
  resolve?: (hostname: string) => Promise<string[]>;
}

const resolveAll = async (hostname: string) => (await lookup(hostname, { all: true })).map((a) => a.address);

/** A guarded fetch: at most one network attempt per floor, never to a link-local address. */
function guardedFetch(url: string, opts: JwksSourceOptions): typeof fetch {
  const now = opts.now ?? Date.now;
  const fetchImpl = opts.fetch ?? fetch;
  const resolve = opts.resolve ?? resolveAll;
  let lastAttempt = -Infinity;
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (now() - lastAttempt < JWKS_REFETCH_FLOOR_MS)
      throw new errors.JOSEError("the JWKS was fetched less than a minute ago");
    lastAttempt = now();
    const hostname = new URL(url).hostname.replace(/^\[|\]$/g, "");
    const addresses = await resolve(hostname);
    if (addresses.some((a) => !upstreamAddressAllowed(a)))
      throw new errors.JOSEError(`the JWKS host ${hostname} resolves to a link-local address`);
    return fetchImpl(input, init);
  }) as typeof fetch;
}

export function inlineKeys(jwks: JSONWebKeySet): JWTVerifyGetKey {
  return createLocalJWKSet(jwks);
}

export function remoteKeys(url: string, opts: JwksSourceOptions = {}): JWTVerifyGetKey {
  const cache: JWKSCacheInput = {};
  const remote = createRemoteJWKSet(new URL(url), {
    cooldownDuration: JWKS_REFETCH_FLOOR_MS,
    cacheMaxAge: JWKS_MAX_AGE_MS,
    timeoutDuration: JWKS_TIMEOUT_MS,
    [customFetch]: guardedFetch(url, opts),
    [jwksCache]: cache,
  });
  let lastGood: { jwks: JSONWebKeySet; keys: JWTVerifyGetKey } | undefined;
  let failing = false;
  return async (header, token) => {
    try {
      const key = await remote(header, token);
      failing = false;
      return key;
    } catch (error) {
      // The set was fetched and has no such key (or several): the token's problem, a 401.
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
      if (!(error instanceof errors.JOSEError) && !(error instanceof TypeError)) throw error;
      const jwks = (cache as Partial<ExportedJWKSCache>).jwks;
      if (!failing)
        logOutage(
          `[sluice] the JWKS at ${url} cannot be fetched (${(error as Error).message}): ${jwks ? "keeping its last good keys" : "its tokens get 503 until it can"}`,
        );
      failing = true;
      if (!jwks) throw new JwksUnavailableError(`The JWKS at ${url} cannot be fetched.`);
      if (lastGood?.jwks !== jwks) lastGood = { jwks, keys: createLocalJWKSet(jwks) };
      return lastGood.keys(header, token);
    }
  };
}
