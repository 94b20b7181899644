/**
 * Where to go after logging in: the `next` parameter only when it is a path on this site.
 * Anything else (absolute URLs, protocol-relative `//host`, backslash tricks that browsers read
 * as `//`, control characters, the login page itself) falls back to `/`, so a crafted link can
 * never send an operator to another site after they typed their password.
 *
 * The check applies to the RESULT, after the URL parser has normalised the path: `/.//evil.example`
 * passes every test on the raw text yet normalises to `//evil.example`, which the browser reads as
 * another host. The result must start with exactly one `/` followed by neither `/` nor `\`, also
 * after percent-decoding it (up to three times: `%2F`, `%252F`), since some router or proxy on the
 * way may decode it once more.
 */

/** Whether `path` (a URL's pathname) stays a path on this site, however often it is decoded. */
function staysOnSite(path: string): boolean {
  let current = path;
  for (let round = 0; round < 4; round++) {
    if (!current.startsWith("/") || current.startsWith("//") || current.startsWith("/\\")) return false;
    if (/[\u0000-\u001f\u007f]/.test(current)) return false;
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return false;
    }
    if (decoded === current) return true;
    current = decoded;
  }
  return false;
}

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
  if (!staysOnSite(url.pathname)) return "/";
  if (url.pathname === "/login" || url.pathname.startsWith("/login/")) return "/";
  const result = `${url.pathname}${url.search}${url.hash}`;
  // The result is what the browser will navigate to: parsed again, it must still be this site.
  if (new URL(result, "http://sluice.invalid").origin !== "http://sluice.invalid") return "/";
  return result;
}

/** The login page's address that comes back to `path` afterwards. */
export function loginPathFor(path: string): string {
  const next = safeNextPath(path);
  return next === "/" ? "/login" : `/login?next=${encodeURIComponent(next)}`;
}
