/**
 * Where to go after logging in: the `next` parameter only when it is a path on this site.
 * Anything else (absolute URLs, protocol-relative `//host`, backslash tricks that browsers read
 * as `//`, control characters, the login page itself) falls back to `/`, so a crafted link can
 * never send an operator to another site after they typed their password.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (typeof next !== "string" || next.length === 0 || next.length > 2048) return "/";
  if (!next.startsWith("/") || next.startsWith("//")) return "/";
  // Browsers treat `\` as `/` in URLs and drop tabs and newlines, so `/\evil.com` is `//evil.com`.
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return "/";
  let url: URL;
  try {
    url = new URL(next, "http://sluice.invalid");
  } catch {
    return "/";
  }
  if (url.origin !== "http://sluice.invalid") return "/";
  if (url.pathname === "/login" || url.pathname.startsWith("/login/")) return "/";
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The login page's address that comes back to `path` afterwards. */
export function loginPathFor(path: string): string {
  const next = safeNextPath(path);
  return next === "/" ? "/login" : `/login?next=${encodeURIComponent(next)}`;
}
