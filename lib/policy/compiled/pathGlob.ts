/**
 * Rule `match.path` globs: `*` matches exactly one path segment, `**` any number (zero included),
 * everything else literally. `/api/v1/echo/**` matches `/api/v1/echo` and everything below it.
 * Requests are matched by their path decoded once (lib/dataplane/requestPath.ts), so a glob is
 * decoded once too: `/api/v1/caf%C3%A9` and `/api/v1/café` are the same rule, as are `/api/v1/%78`
 * and `/api/v1/x`. An encoded `/` or `\` in a glob stays literal (a request carrying one is refused
 * before any rule is matched), as does a malformed escape. A trailing slash on the request path is
 * ignored; the request path is never decoded here (that would decode it twice).
 *
 * Matching is segment-wise and never backtracks (a glob compiled to a regex with one `(?:/[^/]+)*`
 * per `**` took seconds per match on a long path, exponential in the number of `**`): a run of `**`
 * is one `**`, the glob splits at each `**` into blocks of fixed length (literals and `*`), the
 * first block must be the path's prefix, the last its suffix, and each middle block is placed at
 * its leftmost fit after the previous one. Leftmost is always right for fixed-length blocks, so the
 * cost is at most (path segments) x (glob segments), with no second attempt. The rule schema caps
 * the wildcards of a glob as well (lib/policy/rules/ruleSchema.ts).
 */

/** Decodes a glob segment once; encoded separators and malformed escapes are kept as written. */
function decodeSegment(segment: string): string {
  if (!segment.includes("%")) return segment;
  return segment.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    if (/%(2f|5c)/i.test(run)) return run.toUpperCase();
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** A compiled glob: `test(path)` on a path already passed through `normalizePath`. */
export interface PathMatcher {
  test(path: string): boolean;
}

/** One fixed-length run of segments between `**`: each entry a literal, or null for `*`. */
type Block = (string | null)[];

function blockFitsAt(block: Block, segments: readonly string[], at: number): boolean {
  for (let i = 0; i < block.length; i++) {
    const want = block[i];
    if (want !== null && want !== segments[at + i]) return false;
  }
  return true;
}

/**
 * The request path's segments, or null when it cannot match any glob: a glob's segments are never
 * empty, so neither may the path's be (`/a//b` matches nothing). `/` has no segment: the root a
 * tenant's host or a forwarded URI may name (and the gateway's `/api/v1`), matched by `/**` and `/`.
 */
function segmentsOf(path: string): string[] | null {
  if (path === "" || path === "/") return [];
  if (!path.startsWith("/")) return null;
  const segments = path.slice(1).split("/");
  return segments.includes("") ? null : segments;
}

/**
 * `caseInsensitive` (a rule's `match.caseInsensitive`): literals and the request path are compared
 * in lower case (`toLowerCase`, as a case-insensitive router's comparison), so `/api/v1/LOGIN`
 * matches `/api/v1/login`.
 */
export function compilePathGlob(glob: string, { caseInsensitive = false } = {}): PathMatcher {
  const fold = (segment: string) => (caseInsensitive ? segment.toLowerCase() : segment);
  const parts = glob.split("/").filter(Boolean).map(decodeSegment).map(fold);
  // Blocks between `**` (a run of `**` is one): blocks.length - 1 is the number of `**`.
  const blocks: Block[] = [[]];
  for (const part of parts) {
    if (part === "**") {
      if (blocks[blocks.length - 1]!.length > 0 || blocks.length === 1) blocks.push([]);
      continue;
    }
    blocks[blocks.length - 1]!.push(part === "*" ? null : part);
  }
  // `[[], []]` from a leading `**` with nothing before it is already right; drop empty middle blocks.
  const first = blocks[0]!;
  const last = blocks.length > 1 ? blocks[blocks.length - 1]! : null;
  const middle = blocks.slice(1, -1).filter((b) => b.length > 0);

  return {
    test(path: string): boolean {
      const segments = segmentsOf(caseInsensitive ? path.toLowerCase() : path);
      if (segments === null) return false;
      if (last === null) return segments.length === first.length && blockFitsAt(first, segments, 0);
      if (segments.length < first.length + last.length) return false;
      if (!blockFitsAt(first, segments, 0)) return false;
      const lastAt = segments.length - last.length;
      if (!blockFitsAt(last, segments, lastAt)) return false;
      let at = first.length;
      for (const block of middle) {
        while (at + block.length <= lastAt && !blockFitsAt(block, segments, at)) at++;
        if (at + block.length > lastAt) return false;
        at += block.length;
      }
      return true;
    },
  };
}

/** A decoded request path as rules match it: without a trailing slash. */
export function normalizePath(path: string): string {
  return path.length > 1 && path.endsWith("/") ? path.replace(/\/+$/, "") || "/" : path;
}
