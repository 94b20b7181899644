/**
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): when an operator whose session was
 * opened by single sign-on logs out, Sluice ends its own session and then sends the browser to the
 * identity provider's `end_session_endpoint` (openid-client's buildEndSessionUrl: `client_id` and
 * `post_logout_redirect_uri` = Sluice's /login), so the IdP's session ends too and the next single
 * sign-on asks for the password again.
 *
 * Answers null (a local logout only, never an error: the Sluice session is already gone) when the
 * session was a password login, single sign-on is off, the configured issuer is no longer the one
 * that opened the session, the IdP has no end_session_endpoint, or it cannot be reached (logged).
 */
import * as oidc from "openid-client";
import { config } from "../../config/config";
import { requestOrigin } from "./requestOrigin";
import { discover } from "./ssoFlow";

export const POST_LOGOUT_PATH = "/login";

export async function ssoLogoutUrl(request: Request, ended: { ssoIssuer: string | null } | null): Promise<URL | null> {
  const settings = config().oidc;
  if (!ended?.ssoIssuer || !settings) return null;
  try {
    const idp = await discover(settings);
    const metadata = idp.serverMetadata();
    if (metadata.issuer !== ended.ssoIssuer || !metadata.end_session_endpoint) return null;
    const origin = settings.redirectUri?.origin ?? requestOrigin(request, config().trustProxy);
    if (!origin) return null;
    return oidc.buildEndSessionUrl(idp, { post_logout_redirect_uri: `${origin}${POST_LOGOUT_PATH}` });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    console.warn(`sluice: single sign-on logout at the identity provider skipped${cause}`);
    return null;
  }
}
