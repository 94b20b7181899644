/**
 * OpenID Connect authorization code flow with PKCE (openid-client), free of Next:
 * - `beginSso` discovers the issuer (cached 10 minutes per process; a failure is not cached) and
 *   answers the IdP's authorization URL and the pending login (state, nonce, PKCE verifier, where
 *   to go afterwards) that the caller keeps in the browser (ssoPendingCookie.ts).
 * - `finishSso` checks the callback against the pending login: its `state` first (a mismatch is
 *   refused before the IdP is asked anything), then the code exchange, where openid-client checks
 *   the PKCE verifier, the ID token's signature, issuer, audience, expiry and `nonce`. Claims
 *   missing from the ID token (email, the role claim) are read from the userinfo endpoint.
 * Every failure is an SsoError with its code (ssoErrors.ts): an IdP that cannot be reached or
 * answers garbage is `idp_unavailable`, never a 500.
 */
import * as oidc from "openid-client";
import { emailSchema } from "../../common/operatorFields";
import type { OidcConfig } from "../../config/oidcConfig";
import type { Role } from "./operatorSchemas";
import { SsoError } from "./ssoErrors";
import { claimValues, mapRole } from "./ssoRoles";

const DISCOVERY_TTL_MS = 10 * 60_000;
const IDP_TIMEOUT_SECONDS = 5;

export interface PendingSso {
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  /** A path on this site (already reduced by the caller). */
  next: string;
}

export interface SsoIdentity {
  issuer: string;
  subject: string;
  email: string;
  emailVerified: boolean;
  role: Role;
}

let discovered: { key: string; at: number; config: Promise<oidc.Configuration> } | undefined;

/** The IdP's discovered configuration; a failure is an SsoError `idp_unavailable`. */
export function discover(settings: OidcConfig): Promise<oidc.Configuration> {
  const key = `${settings.issuer.href} ${settings.clientId}`;
  if (discovered && discovered.key === key && Date.now() - discovered.at < DISCOVERY_TTL_MS) return discovered.config;
  const config = oidc
    .discovery(
      settings.issuer,
      settings.clientId,
      settings.clientSecret,
      settings.clientSecret === undefined ? oidc.None() : undefined,
      {
        // oidcConfig.ts admits plain http only for a loopback issuer (a local test IdP).
        execute: settings.issuer.protocol === "http:" ? [oidc.allowInsecureRequests] : [],
        timeout: IDP_TIMEOUT_SECONDS,
      },
    )
    .then((found) => {
      found.timeout = IDP_TIMEOUT_SECONDS;
      return found;
    })
    .catch((error: unknown) => {
      if (discovered?.config === config) discovered = undefined;
      throw new SsoError("idp_unavailable", { cause: error });
    });
  discovered = { key, at: Date.now(), config };
  return config;
}

export async function beginSso(
  settings: OidcConfig,
  redirectUri: string,
  next: string,
): Promise<{ url: URL; pending: PendingSso }> {
  const config = await discover(settings);
  const verifier = oidc.randomPKCECodeVerifier();
  const pending: PendingSso = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier, redirectUri, next };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: settings.scopes,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state: pending.state,
    nonce: pending.nonce,
  });
  return { url, pending };
}

/** The SsoError a failed exchange or verification stands for. */
export function classifySsoFailure(error: unknown): SsoError {
  if (error instanceof SsoError) return error;
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError)
    return new SsoError("idp_refused", { cause: error });
  if (error instanceof oidc.ClientError) {
    const detail = (error.cause as { cause?: { claim?: unknown } } | undefined)?.cause;
    if (error.code === "OAUTH_JWT_TIMESTAMP_CHECK_FAILED") return new SsoError("token_expired", { cause: error });
    if (error.code === "OAUTH_JWT_CLAIM_COMPARISON_FAILED" && detail?.claim === "nonce")
      return new SsoError("nonce_mismatch", { cause: error });
    if (error.code === "OAUTH_RESPONSE_IS_NOT_CONFORM" || error.code === "OAUTH_RESPONSE_IS_NOT_JSON")
      return new SsoError("idp_unavailable", { cause: error });
    return new SsoError("invalid_token", { cause: error });
  }
  // fetch failures (TypeError "fetch failed"), timeouts (AbortError, TimeoutError)
  return new SsoError("idp_unavailable", { cause: error });
}

async function exchange(settings: OidcConfig, callback: URL, pending: PendingSso): Promise<Record<string, unknown>> {
  const config = await discover(settings);
  const tokens = await oidc.authorizationCodeGrant(config, callback, {
    pkceCodeVerifier: pending.verifier,
    expectedState: pending.state,
    expectedNonce: pending.nonce,
    idTokenExpected: true,
  });
  const idClaims = tokens.claims();
  if (!idClaims) throw new SsoError("invalid_token");
  const claims: Record<string, unknown> = { ...idClaims };
  if (typeof claims.email !== "string" || claimValues(claims, settings.roleClaim).length === 0) {
    const userInfo = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    for (const [name, value] of Object.entries(userInfo)) if (!(name in claims)) claims[name] = value;
  }
  return claims;
}

/** `requestUrl` is the callback as it reached Sluice; only its query is used (proxies may rewrite the host). */
export async function finishSso(
  settings: OidcConfig,
  requestUrl: URL,
  pending: PendingSso | null,
): Promise<SsoIdentity> {
  if (!pending) throw new SsoError("login_expired");
  const state = requestUrl.searchParams.get("state");
  if (state !== pending.state) throw new SsoError("state_mismatch");
  if (requestUrl.searchParams.has("error")) throw new SsoError("idp_refused");
  const callback = new URL(pending.redirectUri);
  callback.search = requestUrl.search;
  let claims: Record<string, unknown>;
  try {
    claims = await exchange(settings, callback, pending);
  } catch (error) {
    throw classifySsoFailure(error);
  }
  const email = emailSchema.safeParse(claims.email);
  if (!email.success) throw new SsoError("no_email");
  const role = mapRole(claims, settings);
  if (!role) throw new SsoError("no_role");
  return {
    issuer: String(claims.iss),
    subject: String(claims.sub),
    email: email.data,
    emailVerified: claims.email_verified === true,
    role,
  };
}
