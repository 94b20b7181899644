/**
 * Rule `match.path` globs: `*` matches exactly one path segment, `**` any number (zero included),
 * everything else literally. `/api/v1/echo/**` matches `/api/v1/echo` and everything below it.
 * A trailing slash on the request path is ignored, and percent-encoded unreserved characters are
 * decoded first (RFC 3986 6.2.2): `/api/v1/echo/%78` is the route `/api/v1/echo/x` and must not
 * escape that path's rules.
 */

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `%78` → `x` for unreserved characters; other escapes are kept, with upper-case hex digits. */
function decodeUnreserved(path: string): string {
  return path.replace(/%[0-9A-Fa-f]{2}/g, (encoded) => {
    const char = String.fromCharCode(parseInt(encoded.slice(1), 16));
    return /^[A-Za-z0-9._~-]$/.test(char) ? char : encoded.toUpperCase();
  });
}

export function compilePathGlob(glob: string): RegExp {
  const segments = decodeUnreserved(glob).split("/").filter(Boolean);
  const body = segments.map((seg) => (seg === "**" ? "(?:/[^/]+)*" : seg === "*" ? "/[^/]+" : "/" + escape(seg))).join("");
  return new RegExp(`^${body}$`);
}

export function normalizePath(raw: string): string {
  const path = decodeUnreserved(raw);
  return path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") || "/" : path;
}
