/**
 * Why a single sign-on login failed: a closed set of codes, each with the message the login page
 * shows. Only the code travels in the redirect back to /login (`?sso_error=<code>`), so a crafted
 * link can never put text of its own on the page. An SSO failure creates no operator and no session.
 */

export const SSO_ERRORS = {
  sso_off: "Single sign-on is not configured on this Sluice.",
  idp_unavailable: "The identity provider could not be reached. Try again in a moment, or ask your administrator.",
  idp_refused: "The identity provider did not let you in.",
  login_expired: "The single sign-on attempt expired or was started in another browser. Start again.",
  state_mismatch: "The answer from the identity provider does not match this login (wrong state). Start again.",
  nonce_mismatch: "The identity provider's ID token was not issued for this login (wrong nonce). Start again.",
  token_expired:
    "The identity provider's ID token has expired or is not yet valid. Check the clocks, then start again.",
  invalid_token: "The identity provider's answer could not be verified.",
  no_email: "The identity provider sent no email address for you; Sluice needs one (scope `email`).",
  no_role:
    "Your account at the identity provider has no role in Sluice (neither admin nor viewer). Ask your administrator.",
  email_taken: "An operator with your email already exists and is not linked to this identity provider. Ask an admin.",
  password_off: "Password login is turned off on this Sluice: log in with single sign-on.",
} as const;

export type SsoErrorCode = keyof typeof SSO_ERRORS;

export class SsoError extends Error {
  constructor(
    readonly code: SsoErrorCode,
    options?: { cause?: unknown },
  ) {
    super(SSO_ERRORS[code], options);
    this.name = "SsoError";
  }
}

export function isSsoErrorCode(value: unknown): value is SsoErrorCode {
  return typeof value === "string" && Object.hasOwn(SSO_ERRORS, value);
}

/** The login page's message for `?sso_error=`, or null for anything that is not one of the codes. */
export function ssoErrorMessage(code: unknown): string | null {
  return isSsoErrorCode(code) ? SSO_ERRORS[code] : null;
}
