/**
 * The path of a request under /api/v1 as rules see it: percent-decoded ONCE, segment by segment,
 * as the contract says. A path that cannot be decoded that way without changing its meaning is
 * refused (400) instead of being guessed at:
 * - an encoded `/` or `\` (`%2F`, `%5C`): decoding would move a segment boundary, so a rule on
 *   `/api/v1/echo/export/**` could be escaped with `/api/v1/echo/export%2Fa` (or an upstream that
 *   decodes again would see another path than the rules did); a raw `\` too (some servers read it as `/`);
 * - a `.` or `..` segment (encoded or not): a proxy or upstream resolving it would reach a path the
 *   rules never matched;
 * - an empty segment (`//`; a trailing `/` is fine): an upstream that merges slashes would see
 *   another path than the rules did;
 * - a malformed escape (`%ZZ`, invalid UTF-8) or a control character once decoded.
 * `%2578` decodes to `%78` and stays that: decoding once means a second round never happens.
 * Path parameters (`;` to the end of a segment, RFC 3986 3.3) are no part of the path rules see:
 * `/login;jsessionid=1` is `/login`, as Tomcat and Spring route it (they strip them before decoding,
 * as here, so `%3B` stays a literal `;`). A segment that is `.` or `..` once stripped (`/..;/`,
 * Tomcat's traversal) is refused like any dot segment, and so is one that was only a parameter
 * (`/;x/`, an empty segment). The path forwarded to an upstream stays as sent.
 * A `#` is refused too (`FRAGMENT`): a client never sends a fragment, and an upstream that drops it
 * would route `/login#` as `/login` while a rule saw `login#`.
 */

export type DecodedPath = { ok: true; path: string } | { ok: false; reason: string };

const ENCODED_SEPARATOR = /%(2f|5c)/i;
const CONTROL = /[\u0000-\u001f\u007f]/;

export function decodePathOnce(sentPath: string): DecodedPath {
  if (!sentPath.startsWith("/")) return { ok: false, reason: "The request path must start with /." };
  if (sentPath.includes("#")) return FRAGMENT;
  if (sentPath.includes("\\")) return { ok: false, reason: "The request path must not contain a backslash." };
  // Checked as sent, parameters included: what an upstream may decode and split on.
  if (sentPath.includes("%") && ENCODED_SEPARATOR.test(sentPath))
    return { ok: false, reason: "The request path must not contain an encoded / or \\ (%2F, %5C)." };
  // `/;x/login` becomes `//login`: refused below as an empty segment.
  const rawPath = sentPath.includes(";") ? withoutPathParameters(sentPath) : sentPath;
  if (/\/\/./.test(rawPath)) return { ok: false, reason: "The request path must not contain an empty segment (//)." };
  if (!rawPath.includes("%")) {
    // The common case: nothing to decode; only dot segments and control characters to refuse.
    if (CONTROL.test(rawPath)) return { ok: false, reason: "The request path must not contain control characters." };
    return hasDotSegment(rawPath) ? DOT_SEGMENT : { ok: true, path: rawPath };
  }
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return { ok: false, reason: "The request path has a malformed percent-encoding." };
  }
  if (CONTROL.test(path)) return { ok: false, reason: "The request path must not contain control characters." };
  return hasDotSegment(path) ? DOT_SEGMENT : { ok: true, path };
}

/**
 * A request target with a fragment (`#`) is a 400, in the path or after the query (contract v3):
 * no rule ever sees a path with a `#` in it, and nothing that may drop it is forwarded.
 */
export const FRAGMENT: DecodedPath & { ok: false } = {
  ok: false,
  reason: "The request target must not contain a fragment (#).",
};

/** The raw path with each segment's `;parameters` removed. */
function withoutPathParameters(rawPath: string): string {
  return rawPath.replace(/;[^/]*/g, "");
}

const DOT_SEGMENT: DecodedPath = { ok: false, reason: "The request path must not contain . or .. segments." };

function hasDotSegment(path: string): boolean {
  if (!path.includes(".")) return false;
  return path.split("/").some((s) => s === "." || s === "..");
}

/**
 * A request target in absolute-form (`http://api.example/api/v1/echo?x=1`, as a client talking to
 * a proxy sends it) as origin-form (`/api/v1/echo?x=1`) and its authority. RFC 9112 section 3.2.2:
 * a server must accept absolute-form, and the target's authority then stands for the Host header.
 * Before, such a request went to Next, which answered a redirect to that URL: an /api/v1 route was
 * neither served nor limited. null: not absolute-form (origin-form, `*`), or an authority that is
 * empty or carries userinfo (which a request must not send; it goes on as before).
 */
export function absoluteForm(target: string): { originForm: string; authority: string } | null {
  // A fragment stays in the origin-form, where the data plane refuses it (400) like any other.
  const m = /^https?:\/\/([^/?#@]+)([/?#].*)?$/i.exec(target);
  if (!m) return null;
  const rest = m[2] ?? "";
  return { originForm: rest.startsWith("/") ? rest : `/${rest}`, authority: m[1]! };
}

/** Splits a request target (`/a/b?x=1`) into its path and query (the query keeps its `?`). */
export function splitTarget(target: string): { rawPath: string; query: string } {
  const q = target.indexOf("?");
  return q < 0 ? { rawPath: target, query: "" } : { rawPath: target.slice(0, q), query: target.slice(q) };
}

/** The raw (still encoded) path after its first `n` segments: `/api/v1/orders/42` minus 2 is `/orders/42`. */
export function rawPathAfter(rawPath: string, n: number): string {
  let at = 0;
  for (let i = 0; i < n && at >= 0; i++) at = rawPath.indexOf("/", at + 1);
  return at < 0 ? "" : rawPath.slice(at);
}

/**
 * Whether a request target belongs to the data plane: its path is /api/v1 or below, however it
 * is spelled (`/api/%761/echo`, `/api/x/../v1`, `/api//v1`), so no spelling reaches Next's routes
 * instead; and `*`. Lenient on purpose: the data plane then decodes strictly and refuses what it must.
 */
export function isDataPlaneTarget(target: string): boolean {
  // `OPTIONS *` (asterisk-form) names no route: the data plane answers it a problem+json 400, where
  // Next answered a text/plain 500.
  if (target === "*") return true;
  // What follows a `#` is not part of the path: `/api/v1#/../x` is the data plane's (its 400).
  const hash = target.indexOf("#");
  const { rawPath } = splitTarget(hash < 0 ? target : target.slice(0, hash));
  if (rawPath === "/api/v1" || rawPath.startsWith("/api/v1/")) return true;
  if (!/^[/\\]+(api|%61)/i.test(rawPath)) return false;
  let path = rawPath;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    // Keep the raw text: a malformed escape elsewhere still leaves the prefix readable.
  }
  const resolved: string[] = [];
  for (const sent of path.split(/[/\\]+/)) {
    const segment = sent.replace(/;.*/, ""); // `/api;x/v1` is /api/v1, as decodePathOnce reads it
    if (segment === "" || segment === ".") continue;
    if (segment === "..") resolved.pop();
    else resolved.push(segment);
  }
  return resolved[0] === "api" && resolved[1] === "v1";
}
