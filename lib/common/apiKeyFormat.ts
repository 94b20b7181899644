/**
 * The shape of tenant and key ids and of API keys, stated once: minting and parsing keys
 * (lib/policy/keys/apiKeySecret.ts), ids (ids.ts), log redaction (lib/http/redactSecrets.ts), the
 * schemas and the OpenAPI document's id patterns, the dashboard's id links, and docs/rules.md
 * (checked by docs/factsInDocs.test.ts) all take it from here. Browser-safe: no imports.
 *
 * A key reads `sluice_<keyId>_<secret>`: the prefix lets secret scanners recognise a leaked key; the
 * key id finds the stored hash without a search; the secret is random base62.
 */

/** The base62 alphabet as a regular-expression character class body. */
export const BASE62_CLASS = "0-9A-Za-z";
/** Tenant and key ids: this many base62 characters. */
export const ID_LENGTH = 8;
export const ID_PATTERN = new RegExp(`^[${BASE62_CLASS}]{${ID_LENGTH}}$`);

/** Also how the forward-auth configs in deploy/ tell a Sluice key from other credentials (which they pass on): change them together. */
export const KEY_PREFIX = "sluice_";
/** Base62 characters of a key's secret: 22 carry 131 random bits. */
export const KEY_SECRET_LENGTH = 22;
export const KEY_SECRET_BITS = Math.round(KEY_SECRET_LENGTH * Math.log2(62));
/** A whole key; group 1 is its key id, group 2 its secret. */
export const KEY_PATTERN = new RegExp(
  `^${KEY_PREFIX}([${BASE62_CLASS}]{${ID_LENGTH}})_([${BASE62_CLASS}]{${KEY_SECRET_LENGTH}})$`,
);
/** A key's public part and the separator before its secret, as found in free text (for redaction). */
export const KEY_PUBLIC_PART_SOURCE = `${KEY_PREFIX}[${BASE62_CLASS}]{${ID_LENGTH}}_`;

/**
 * Scoped admin API tokens (lib/control/tokens) read `sluice_tok_<secret>`. They start with
 * KEY_PREFIX on purpose: the forward-auth configs strip every `sluice_…` credential before a request
 * goes upstream, so an admin token sent through a gateway by mistake never reaches a backend either.
 * `tok` is three characters, so no token matches KEY_PATTERN (whose key id has ID_LENGTH).
 */
export const ADMIN_TOKEN_PREFIX = `${KEY_PREFIX}tok_`;
/** Base62 characters of a token's secret: 32 carry 190 random bits. */
export const ADMIN_TOKEN_SECRET_LENGTH = 32;
export const ADMIN_TOKEN_PATTERN = new RegExp(`^${ADMIN_TOKEN_PREFIX}[${BASE62_CLASS}]{${ADMIN_TOKEN_SECRET_LENGTH}}$`);
