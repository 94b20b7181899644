/**
 * The pending single sign-on login, kept in the browser between the redirect to the IdP and its
 * callback: state, nonce, PKCE verifier, redirect URI and where to go afterwards, as base64url JSON
 * in an HttpOnly cookie that lives 10 minutes (`__Host-sluice_sso` over HTTPS, `sluice_sso` over
 * plain HTTP, as the session cookie). SameSite=Lax: the IdP's redirect back is a top-level GET,
 * which carries it. It binds the callback to the browser that started the login (login CSRF): a
 * callback whose `state` is not this cookie's is refused. Tampering with it can only spoil the
 * browser's own login. It is cleared by the callback, whatever its outcome.
 */
import type { PendingSso } from "./ssoFlow";

export const SSO_COOKIE = "sluice_sso";
const MAX_AGE_SECONDS = 600;
const FIELDS = ["state", "nonce", "verifier", "redirectUri", "next"] as const;

const nameFor = (secure: boolean) => (secure ? `__Host-${SSO_COOKIE}` : SSO_COOKIE);
const attributes = (maxAge: number, secure: boolean) =>
  `Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;

export function pendingSsoCookie(pending: PendingSso, secure: boolean): string {
  const value = Buffer.from(JSON.stringify(pending)).toString("base64url");
  return `${nameFor(secure)}=${value}; ${attributes(MAX_AGE_SECONDS, secure)}`;
}

export function clearedPendingSsoCookie(secure: boolean): string {
  return `${nameFor(secure)}=; ${attributes(0, secure)}`;
}

/** The pending login of this request, or null when there is none or it is malformed. */
export function readPendingSso(headers: Headers, secure: boolean): PendingSso | null {
  const name = nameFor(secure);
  for (const pair of (headers.get("cookie") ?? "").split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0 || pair.slice(0, eq).trim() !== name) continue;
    const raw = pair.slice(eq + 1).trim();
    if (raw === "" || raw.length > 4096) return null;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
      if (parsed === null || typeof parsed !== "object") return null;
      const record = parsed as Record<string, unknown>;
      if (!FIELDS.every((f) => typeof record[f] === "string" && record[f] !== "")) return null;
      return Object.fromEntries(FIELDS.map((f) => [f, record[f]])) as unknown as PendingSso;
    } catch {
      return null;
    }
  }
  return null;
}
