/**
 * The limits of input fields that more than one place states, each said once here: the zod schemas
 * take them (and through the schemas the admin API's 422 messages and the OpenAPI document's
 * minimum, maximum and maxLength), the dashboard's forms and error wording take them, and the
 * docs' tables are checked against them (docs/factsInDocs.test.ts). Limits that one schema alone
 * states stay in that schema (upstream timeouts, alert windows); operator emails and passwords
 * have theirs in operatorFields.ts. Browser-safe: no imports.
 */

const DAY_MS = 86_400_000;

/** Rule names: 1-64 characters of a-z, 0-9, _ and -, starting with a letter or digit; also any field naming a rule. */
export const RULE_NAME_MAX = 64;
export const RULE_NAME_PATTERN = new RegExp(`^[a-z0-9][a-z0-9_-]{0,${RULE_NAME_MAX - 1}}$`);
/** Tenant, key and operator names: 1 to this many characters after trimming. */
export const DISPLAY_NAME_MAX = 128;
/** A caller-given identifier (POST /api/v1/check, identifier overrides): 1 to this many characters. */
export const IDENTIFIER_MAX = 256;
/** The header or query parameter name a `header`/`query` rule counts by. */
export const ATTRIBUTE_NAME_MAX = 64;
/**
 * A descriptor rule's `match.descriptor` (Envoy's rate limit service): at most this many entries,
 * each key 1..64 characters and value 1..256 (lib/policy/rules/ruleSchema.ts; the gRPC service
 * refuses descriptors beyond these with INVALID_ARGUMENT, lib/dataplane/envoy/rlsRequest.ts).
 */
export const DESCRIPTOR_ENTRIES_MAX = 16;
export const DESCRIPTOR_KEY_MAX = 64;
export const DESCRIPTOR_VALUE_MAX = 256;
/** A rule's path glob, and the wildcard segments (`*`, `**`) it may hold. */
export const PATH_GLOB_MAX = 512;
export const MAX_GLOB_WILDCARDS = 8;

/** `limit`, `burst` and `cost` of rules, overrides and checks. */
export const MAX_UNITS = 1_000_000_000;
/**
 * sliding_log keeps one entry per admitted request of the window and every decision reads them all
 * (the `local` fail mode copies them per request): its limit is capped so a decision stays cheap.
 */
export const MAX_SLIDING_LOG_LIMIT = 10_000;
export const MIN_WINDOW_MS = 1_000;
export const MAX_WINDOW_DAYS = 366;
export const MAX_WINDOW_MS = MAX_WINDOW_DAYS * DAY_MS;
/**
 * Scopes `header` and `query`: every distinct value the clients send keeps a Redis key for as long
 * as the rule's state lives, so their windows, penalties and bucket refill times are capped shorter.
 */
export const MAX_ATTRIBUTE_WINDOW_MS = DAY_MS;
/** The longest penalty (blockMs): as long as the longest window. */
export const MAX_BLOCK_MS = MAX_WINDOW_MS;
/** Rules per owner (a tenant, or a key's overrides). */
export const MAX_RULES_PER_OWNER = 100;
/** Overrides of one identifier rule. */
export const MAX_OVERRIDES = 1_000;
/** Entries of one access list (allow or deny). */
export const MAX_ACCESS_ENTRIES = 1_000;

/** GET /api/admin/audit: the most events one page may ask for, the longest actor filter, an action filter. */
export const AUDIT_PAGE_MAX = 500;
export const AUDIT_ACTOR_MAX = 400;
export const AUDIT_ACTION_PATTERN = /^[a-z_.]{1,64}$/;
