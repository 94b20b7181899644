/**
 * Masks secrets in text that is about to be logged or echoed: the safety net for messages Sluice
 * does not write itself (a Prisma error renders the arguments of the failed call; a driver error
 * may quote a value; a client may paste a full API key where an id belongs).
 *
 * Masked: the secret part of Sluice API keys (`sluice_<id>_…`, the public prefix stays, so the
 * key can still be identified), admin API tokens (`sluice_tok_…`, the prefix stays), signing secrets (`whsec_…` of alert webhooks, `upsec_…` of gateway
 * upstreams: the prefix stays), `Bearer` credentials, the session cookie's value, the value of
 * any field whose name says password, secret, token, hash, cookie or authorization (JSON, JS
 * object or `name=value` style), argon2 hashes, SHA-256 hex digests, and the configured secrets
 * (`SLUICE_ADMIN_TOKEN`, `SLUICE_ADMIN_PASSWORD`) wherever they appear. `errorSummary` is what
 * logs show of an unexpected error: its name and its redacted message, at most 500 characters.
 */
import { ADMIN_TOKEN_PREFIX, KEY_PUBLIC_PART_SOURCE } from "../common/apiKeyFormat";
import { config } from "../config/config";

const MASK = "[redacted]";
const MAX_SUMMARY_CHARS = 500;
/** Shorter configured values would mask ordinary words; the config demands far longer anyway. */
const MIN_LITERAL_LENGTH = 8;

const PATTERNS: [RegExp, string][] = [
  [new RegExp(`(${KEY_PUBLIC_PART_SOURCE})[0-9A-Za-z]+`, "g"), `$1${MASK}`],
  [/\b(whsec_|upsec_)[A-Za-z0-9_-]+/g, `$1${MASK}`],
  [new RegExp(`\\b(${ADMIN_TOKEN_PREFIX})[0-9A-Za-z]+`, "g"), `$1${MASK}`],
  [/(\bBearer\s+)[^\s"',;]+/gi, `$1${MASK}`],
  [/(\bsluice_session=)[^\s"',;]+/g, `$1${MASK}`],
  [
    /(["']?\b\w*(?:password|secret|token|hash|cookie|authorization)\w*["']?\s*[:=]\s*)("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s,;}]+)/gi,
    `$1"${MASK}"`,
  ],
  [/\$argon2(?:id|i|d)\$[^\s"';]+/g, MASK],
  [/\b[0-9a-f]{64}\b/gi, MASK],
];

export function redactSecrets(text: string, known: readonly (string | undefined)[] = configuredSecrets()): string {
  let out = text;
  for (const literal of known) {
    if (literal && literal.length >= MIN_LITERAL_LENGTH) out = out.split(literal).join(MASK);
  }
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/** `Name: message` of a thrown value, redacted and capped, for a log line. */
export function errorSummary(error: unknown, known: readonly (string | undefined)[] = configuredSecrets()): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : `non-error value (${typeof error})`;
  const redacted = redactSecrets(text, known);
  return redacted.length > MAX_SUMMARY_CHARS
    ? `${redacted.slice(0, MAX_SUMMARY_CHARS)}… (${redacted.length} chars)`
    : redacted;
}

/** The secrets this process was configured with; none when the configuration itself is broken. */
function configuredSecrets(): string[] {
  try {
    const c = config();
    return [c.adminToken, c.firstAdmin?.password].filter((s): s is string => !!s);
  } catch {
    return [];
  }
}
