/**
 * Rule `match.path` globs: `*` matches exactly one path segment, `**` any number (zero included),
 * everything else literally. `/api/v1/echo/**` matches `/api/v1/echo` and everything below it.
 * A trailing slash on the request path is ignored.
 */

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function compilePathGlob(glob: string): RegExp {
  const segments = glob.split("/").filter(Boolean);
  const body = segments.map((seg) => (seg === "**" ? "(?:/[^/]+)*" : seg === "*" ? "/[^/]+" : "/" + escape(seg))).join("");
  return new RegExp(`^${body}$`);
}

export function normalizePath(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") || "/" : path;
}
