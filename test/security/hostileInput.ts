/**
 * fast-check arbitraries of hostile input for the fuzzers (adminFuzz, apiFuzz), made of the hostile
 * text, numbers and JSON of test/security/hostileValues.ts:
 * - `mutatedFrom(valid)`: a valid body with one field replaced, removed or added, which gets past
 *   the outer checks and so reaches the inner ones (and the database);
 * - `hostileBody(valid)`: what goes over the wire: JSON of the above, non-JSON text, empty bodies,
 *   deep nesting, bodies over the 64 KiB limit, each with a content type from a hostile set;
 * - `hostileSegment` / `hostileQuery`: path parameters and query strings;
 * - `headerText`: what a header value may carry (Latin-1 without CR, LF or NUL), for credentials.
 */
import fc from "fast-check";
import { hostileJson, hostileKey, hostileNumber, hostileText } from "./hostileValues";

type Json = unknown;

function leafPaths(value: Json, base: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [base, ...value.flatMap((v, i) => leafPaths(v, [...base, i]))];
  if (value && typeof value === "object")
    return [base, ...Object.entries(value).flatMap(([k, v]) => leafPaths(v, [...base, k]))];
  return [base];
}

function setAt(value: Json, path: (string | number)[], next: Json | typeof REMOVE): Json {
  if (path.length === 0) return next === REMOVE ? undefined : next;
  const [head, ...rest] = path;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, Json>;
  const child = setAt(copy[head!], rest, next);
  if (child === undefined) delete copy[head!];
  else Object.defineProperty(copy, head!, { value: child, enumerable: true, writable: true, configurable: true });
  return copy;
}

const REMOVE = Symbol("remove");

/** `valid` with one place changed: a value replaced by a hostile one, a key removed, or a hostile key added. */
export function mutatedFrom(valid: Json): fc.Arbitrary<Json> {
  const paths = leafPaths(valid);
  const replacement = fc.oneof(
    { arbitrary: hostileText, weight: 6 },
    { arbitrary: hostileNumber, weight: 2 },
    { arbitrary: hostileJson, weight: 2 },
    { arbitrary: fc.constant(REMOVE), weight: 1 },
  );
  // An extra key now and then (a strict schema refuses it, which hides the replaced value).
  const extra = fc.oneof(
    { arbitrary: fc.constant(null), weight: 6 },
    { arbitrary: fc.tuple(hostileKey, hostileJson), weight: 1 },
  );
  return fc.tuple(fc.nat(paths.length - 1), replacement, extra).map(([i, replacement, extra]) => {
    const mutated = setAt(valid, paths[i]!, replacement);
    if (!extra || !mutated || typeof mutated !== "object" || Array.isArray(mutated)) return mutated ?? null;
    return setAt(mutated, [extra[0]], extra[1]);
  });
}

export interface WireBody {
  /** The bytes sent, or undefined for no body at all. */
  text: string | undefined;
  contentType: string | undefined;
}

const CONTENT_TYPES = [
  undefined,
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=xyz",
  "application/xml",
  "application/json; charset=utf-16",
  "*/*",
  "garbage",
];

const deepNesting = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.constantFrom("[", '{"a":'))
  .map(([depth, open]) => open.repeat(depth) + "1" + (open === "[" ? "]" : "}").repeat(depth));

/** What goes over the wire, where a valid body would be `valid`. */
export function hostileBody(valid: Json): fc.Arbitrary<WireBody> {
  const text: fc.Arbitrary<string | undefined> = fc.oneof(
    { arbitrary: mutatedFrom(valid).map((v) => JSON.stringify(v)), weight: 12 },
    { arbitrary: hostileJson.map((v) => JSON.stringify(v)), weight: 3 },
    { arbitrary: hostileText, weight: 1 },
    {
      arbitrary: fc.constantFrom(
        undefined,
        "",
        " ",
        "null",
        "[]",
        "{}",
        "{",
        "\u0000",
        '{"name":"a","name":"b"}',
        '{"__proto__":{"admin":true},"name":"x"}',
        "[1e400]",
        '{"limit":1e400}',
        "\ufeff{}",
      ),
      weight: 2,
    },
    { arbitrary: deepNesting, weight: 1 },
    {
      arbitrary: fc
        .integer({ min: 64 * 1024 - 10, max: 200 * 1024 })
        .map((n) => JSON.stringify({ name: "x".repeat(n) })),
      weight: 1,
    },
  );
  return fc.record({ text, contentType: fc.constantFrom(...CONTENT_TYPES) });
}

/** A path parameter: hostile text, or something shaped like an id that names nothing. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: hostileText, weight: 4 },
  { arbitrary: fc.stringMatching(/^[0-9A-Za-z]{8}$/), weight: 2 },
  { arbitrary: fc.stringMatching(/^[0-9]{1,25}$/), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      "0",
      "-1",
      "1.0",
      "1e3",
      "99999999999999999999",
      "9223372036854775807",
      "9223372036854775808",
      "AAAAAAAA ",
      " AAAAAAAA",
      "AAAAAAA",
      "AAAAAAAAA",
      "%41AAAAAAA",
    ),
    weight: 1,
  },
);

/**
 * A query string (with its `?`), made of known and unknown names with hostile values, and now and
 * then a valid one (`validValues`: ids that exist), so that one parameter's check is passed and
 * the next one's is reached.
 */
export function hostileQuery(knownNames: string[], validValues: string[] = []): fc.Arbitrary<string> {
  const name = fc.oneof(
    { arbitrary: fc.constantFrom(...knownNames, "__proto__", "constructor"), weight: 4 },
    { arbitrary: hostileText, weight: 1 },
  );
  const value = fc.oneof(
    { arbitrary: hostileText, weight: 3 },
    { arbitrary: hostileNumber.map(String), weight: 2 },
    {
      arbitrary: fc.constantFrom("5m", "1h", "24h", "1000", "60000", String(Date.now()), "-anon", ...validValues),
      weight: 2,
    },
  );
  const pair = fc
    .tuple(name, value, fc.boolean())
    .map(([n, v, raw]) =>
      raw ? `${n}=${v}` : `${encodeURIComponent(toWellFormed(n))}=${encodeURIComponent(toWellFormed(v))}`,
    );
  return fc.array(pair, { maxLength: 5 }).map((pairs) => (pairs.length === 0 ? "" : `?${pairs.join("&")}`));
}

/** encodeURIComponent throws on lone surrogates; the raw form (above) still sends them. */
export function toWellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

/** Latin-1 text without CR, LF and NUL: what the Headers API lets a client send. */
export const headerText: fc.Arbitrary<string> = fc.oneof(
  fc.string({
    unit: fc
      .integer({ min: 1, max: 255 })
      .filter((c) => c !== 10 && c !== 13)
      .map((c) => String.fromCharCode(c)),
    maxLength: 60,
  }),
  fc.constantFrom(
    "",
    " ",
    "Bearer",
    "Bearer ",
    "Bearer  ",
    "bearer x",
    "BEARER x",
    "Basic Og==",
    "Bearer sluice_",
    "Bearer sluice_AAAAAAAA_",
    "Bearer a b",
    "Token x",
    "Bearer \u00ff",
  ),
  fc.integer({ min: 200, max: 9000 }).map((n) => "Bearer " + "k".repeat(n)),
);
