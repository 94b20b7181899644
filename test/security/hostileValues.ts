/**
 * fast-check arbitraries of hostile values, the material of test/security/hostileInput.ts (the
 * fuzzers' bodies, path segments and queries):
 * - `hostileText`: strings with NUL and other control characters, unpaired surrogates, bidi and
 *   zero-width marks, astral characters, prototype names, number-ish and SQL-ish text, long runs;
 * - `hostileNumber`: edges of integers and doubles (-0, 2^31, 2^53 + 2, 1e308, ...);
 * - `hostileKey`: object keys that trip naive object handling;
 * - `hostileJson`: any JSON value made of those, nested deep, with `__proto__`/`constructor` keys.
 */
import fc from "fast-check";

const SPECIAL_CHARS = [
  "\u0000",
  "\u0001",
  "\u0008",
  "\t",
  "\n",
  "\r",
  "\u001b",
  "\u007f",
  "\u0085",
  "\u00a0",
  "\u200b",
  "\u200e",
  "\u202e",
  "\u2028",
  "\ufeff",
  "\uffff",
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "\u{1f600}",
  "\u{10ffff}",
  "é",
  "ß",
  "İ",
  "\u0301",
  "<",
  ">",
  "&",
  '"',
  "'",
  "\\",
  "/",
  "%",
  "*",
  "?",
  "#",
  " ",
];

const SPECIAL_STRINGS = [
  "",
  " ",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "NaN",
  "Infinity",
  "-Infinity",
  "-0",
  "1e308",
  "1e400",
  "0x10",
  "1_000",
  "9007199254740993",
  "-1",
  "0",
  "1.5",
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  '\'; DROP TABLE "Tenant"; --',
  "../../etc/passwd",
  "%00",
  "%2e%2e%2f",
  "%ZZ",
  "<script>alert(1)</script>",
  "${jndi:ldap://x}",
  "{{7*7}}",
  "\u0000admin",
  "admin\u0000",
  "a\ud800b",
  "\udfff",
];

const specialChar = fc.constantFrom(...SPECIAL_CHARS);

/** One character: mostly any code unit (so lone surrogates too), often one of the notorious ones. */
const hostileUnit = fc.oneof(
  { arbitrary: specialChar, weight: 3 },
  { arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }), weight: 2 },
  { arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), weight: 2 },
);

export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...SPECIAL_STRINGS), weight: 3 },
  { arbitrary: fc.string({ unit: hostileUnit, maxLength: 40 }), weight: 5 },
  // A valid-looking word with something hostile inside it.
  {
    arbitrary: fc
      .tuple(fc.stringMatching(/^[a-z0-9]{1,10}$/), specialChar, fc.stringMatching(/^[a-z0-9]{0,10}$/))
      .map(([a, c, b]) => a + c + b),
    weight: 3,
  },
  { arbitrary: fc.tuple(fc.integer({ min: 100, max: 5000 }), hostileUnit).map(([n, c]) => c.repeat(n)), weight: 1 },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    0.5,
    1.5,
    999,
    1000,
    1001,
    2 ** 31,
    2 ** 31 - 1,
    2 ** 32,
    2 ** 53,
    2 ** 53 + 2,
    1e21,
    1e308,
    -1e308,
    Number.MIN_VALUE,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Keys that trip naive object handling. */
export const hostileKey = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      "__proto__",
      "constructor",
      "prototype",
      "toString",
      "valueOf",
      "name",
      "rules",
      "limit",
      "",
    ),
    weight: 2,
  },
  { arbitrary: hostileText, weight: 1 },
);

export const hostileJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileText,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(hostileKey, tie("value"), { maxKeys: 5 }),
  ),
})).value;
