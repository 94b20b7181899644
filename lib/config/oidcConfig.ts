/**
 * Single sign-on settings (OpenID Connect, lib/control/auth/sso*) and the password login switch,
 * read from an environment object so they can be tested without touching process.env.
 *
 * - SSO is on when SLUICE_OIDC_ISSUER is set; SLUICE_OIDC_CLIENT_ID is then required and
 *   SLUICE_OIDC_CLIENT_SECRET optional (without it Sluice is a public client: PKCE alone).
 * - The issuer is an absolute `https` URL; plain `http` only on a loopback host (a local test IdP).
 * - Roles: the claim SLUICE_OIDC_ROLE_CLAIM (default `groups`; a dotted path such as
 *   `realm_access.roles` reaches into objects) holds one value or a list. Any value in
 *   SLUICE_OIDC_ADMIN_VALUES makes an admin, else any in SLUICE_OIDC_VIEWER_VALUES a viewer (`*`:
 *   every user the IdP lets through). At least one of the two lists must be set.
 * - SLUICE_PASSWORD_LOGIN=0 turns email-and-password login off; allowed only with SSO on, so the
 *   dashboard cannot be locked shut by configuration.
 * Invalid values throw with the variable's name, as the rest of lib/config does.
 */

type Env = Record<string, string | undefined>;

export interface OidcConfig {
  issuer: URL;
  clientId: string;
  /** Absent: a public client (PKCE only, `token_endpoint_auth_method: none`). */
  clientSecret: string | undefined;
  /** SLUICE_OIDC_REDIRECT_URI; absent: `<the request's origin>/api/auth/sso/callback`. */
  redirectUri: URL | undefined;
  /** SLUICE_OIDC_SCOPES, default `openid email profile`. */
  scopes: string;
  roleClaim: string;
  adminValues: string[];
  /** `["*"]` lets every authenticated user in as a viewer. */
  viewerValues: string[];
  /** SLUICE_OIDC_LABEL: the button reads "Log in with <label>" (default "single sign-on"). */
  label: string;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

function absoluteUrl(name: string, raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an absolute URL, got "${raw}"`);
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK.has(url.hostname)))
    throw new Error(`${name} must be an https URL (plain http only on a loopback host), got "${raw}"`);
  if (url.username || url.password || url.hash)
    throw new Error(`${name} must not carry credentials or a fragment, got "${raw}"`);
  return url;
}

/** A comma-separated list: trimmed entries, empty ones dropped. */
export function valueList(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

export function oidcFromEnv(env: Env): OidcConfig | undefined {
  const issuerRaw = env.SLUICE_OIDC_ISSUER?.trim() ?? "";
  const clientId = env.SLUICE_OIDC_CLIENT_ID?.trim() ?? "";
  if (issuerRaw === "") {
    if (clientId !== "") throw new Error("SLUICE_OIDC_ISSUER must be set when SLUICE_OIDC_CLIENT_ID is");
    return undefined;
  }
  if (clientId === "") throw new Error("SLUICE_OIDC_CLIENT_ID must be set when SLUICE_OIDC_ISSUER is");
  const roleClaim = env.SLUICE_OIDC_ROLE_CLAIM?.trim() || "groups";
  if (roleClaim.length > 200) throw new Error("SLUICE_OIDC_ROLE_CLAIM must be at most 200 characters");
  const adminValues = valueList(env.SLUICE_OIDC_ADMIN_VALUES);
  const viewerValues = valueList(env.SLUICE_OIDC_VIEWER_VALUES);
  if (adminValues.length === 0 && viewerValues.length === 0)
    throw new Error(
      "SLUICE_OIDC_ADMIN_VALUES or SLUICE_OIDC_VIEWER_VALUES must name at least one value of the role claim (nobody could log in)",
    );
  if (adminValues.includes("*"))
    throw new Error('SLUICE_OIDC_ADMIN_VALUES cannot be "*": name the groups or roles that make an admin');
  if (viewerValues.includes("*") && viewerValues.length > 1)
    throw new Error('SLUICE_OIDC_VIEWER_VALUES is either "*" or a list of values, not both');
  const scopes = env.SLUICE_OIDC_SCOPES?.trim() || "openid email profile";
  if (!scopes.split(/\s+/).includes("openid"))
    throw new Error(`SLUICE_OIDC_SCOPES must include "openid", got "${scopes}"`);
  const redirectRaw = env.SLUICE_OIDC_REDIRECT_URI?.trim() ?? "";
  return {
    issuer: absoluteUrl("SLUICE_OIDC_ISSUER", issuerRaw),
    clientId,
    clientSecret: env.SLUICE_OIDC_CLIENT_SECRET || undefined,
    redirectUri: redirectRaw === "" ? undefined : absoluteUrl("SLUICE_OIDC_REDIRECT_URI", redirectRaw),
    scopes,
    roleClaim,
    adminValues,
    viewerValues,
    label: env.SLUICE_OIDC_LABEL?.trim().slice(0, 60) || "single sign-on",
  };
}

/** SLUICE_PASSWORD_LOGIN: `1`/`true`/unset on, `0`/`false` off (only with SSO configured). */
export function passwordLoginFromEnv(env: Env, oidc: OidcConfig | undefined): boolean {
  const raw = env.SLUICE_PASSWORD_LOGIN?.trim() ?? "";
  if (raw === "" || raw === "1" || raw === "true") return true;
  if (raw !== "0" && raw !== "false") throw new Error(`SLUICE_PASSWORD_LOGIN must be 0 or 1, got "${raw}"`);
  if (!oidc) throw new Error("SLUICE_PASSWORD_LOGIN=0 needs single sign-on (SLUICE_OIDC_ISSUER): nobody could log in");
  return false;
}
