/**
 * The docs state facts whose one source is code: the API key format (lib/common/apiKeyFormat.ts),
 * the limits of fields (lib/common/fieldLimits.ts, the upstream schema) and the algorithms'
 * trade-offs (the dashboard's guide, components/rules/algorithmGuide.ts), and what the README says the
 * data plane asks of Postgres (lib/runtime/dataPlaneServices.ts, lib/policy/keys/keyUsage.ts). Each sentence below is
 * built from those constants and must appear in the doc as written, so changing a limit fails here
 * until the doc says the new one. Whitespace is compared collapsed (tables may be padded, prose
 * wrapped anywhere).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ALGORITHM_GUIDE } from "@/components/rules/algorithmGuide";
import { ID_LENGTH, KEY_PREFIX, KEY_SECRET_BITS, KEY_SECRET_LENGTH } from "@/lib/common/apiKeyFormat";
import {
  ATTRIBUTE_NAME_MAX,
  DISPLAY_NAME_MAX,
  IDENTIFIER_MAX,
  MAX_ACCESS_ENTRIES,
  MAX_BLOCK_MS,
  MAX_GLOB_WILDCARDS,
  MAX_OVERRIDES,
  MAX_RULES_PER_OWNER,
  MAX_SLIDING_LOG_LIMIT,
  MAX_UNITS,
  MAX_WINDOW_DAYS,
  MAX_WINDOW_MS,
  MIN_WINDOW_MS,
  PATH_GLOB_MAX,
  RULE_NAME_PATTERN,
} from "@/lib/common/fieldLimits";
import { FLUSH_MS } from "@/lib/policy/keys/keyUsage";
import { RULE_ALGORITHMS } from "@/lib/limiter/types";
import { FULL_REFRESH_MS } from "@/lib/runtime/dataPlaneServices";
import {
  UPSTREAM_TIMEOUT_DEFAULT_MS,
  UPSTREAM_TIMEOUT_MAX_MS,
  UPSTREAM_TIMEOUT_MIN_MS,
} from "@/lib/policy/upstreams/upstreamSchema";

const n = (value: number) => value.toLocaleString("en");
const doc = (name: string) => fs.readFileSync(path.join(import.meta.dirname, name), "utf8").replace(/\s+/g, " ");

const STATEMENTS: Record<string, string[]> = {
  "rules.md": [
    // API keys
    `A key reads \`${KEY_PREFIX}<keyId>_<secret>\``,
    `the key id (${ID_LENGTH} base62 characters)`,
    `${KEY_SECRET_LENGTH} base62 characters (${KEY_SECRET_BITS} random bits) of secret`,
    // The rule table
    `| \`${RULE_NAME_PATTERN.source}\` | required |`,
    `| 1-${ATTRIBUTE_NAME_MAX} characters; not`,
    `| integer 1 .. ${n(MAX_UNITS)} (\`sliding_log\`: at most ${n(MAX_SLIDING_LOG_LIMIT)}) | required |`,
    `| integer ${n(MIN_WINDOW_MS)} .. ${n(MAX_WINDOW_MS)} (${MAX_WINDOW_DAYS} days) | required, unless \`period\` is set (then absent) |`,
    `| integer 1 .. ${n(MAX_UNITS)} | \`limit\` |`,
    `| integer 0 .. ${n(MAX_UNITS)} | 1 |`,
    `at most ${PATH_GLOB_MAX} characters and ${MAX_GLOB_WILDCARDS} wildcards`,
    `| integer 0 .. ${n(MAX_BLOCK_MS)} (${MAX_WINDOW_DAYS} days) | 0 (no penalty) |`,
    `An owner has at most ${MAX_RULES_PER_OWNER} rules.`,
    // The algorithms table: each trade-off is the dashboard's guide, word for word
    ...RULE_ALGORITHMS.map((algorithm) => `| ${ALGORITHM_GUIDE[algorithm].tradeOff} |`),
    // Identifier overrides, access lists, names
    `At most ${n(MAX_OVERRIDES)} per rule, identifiers unique and 1-${IDENTIFIER_MAX} characters of plain text`,
    `\`sliding_log\` rule's overrides at most ${n(MAX_SLIDING_LOG_LIMIT)}`,
    `at most ${n(MAX_ACCESS_ENTRIES)} entries per list`,
    `any text of 1 to ${DISPLAY_NAME_MAX} characters after trimming`,
  ],
  // What the data plane asks of Postgres, off the request path (issue 28, point 18).
  "../README.md": [
    `reloads everything every ${FULL_REFRESH_MS / 1000} s, and writes keys' \`lastUsedAt\` to Postgres in one batch at most every ${FLUSH_MS / 1000} s`,
  ],
  "gateway.md": [
    `\`timeoutMs\` ${n(UPSTREAM_TIMEOUT_MIN_MS)} .. ${n(UPSTREAM_TIMEOUT_MAX_MS)} (default ${n(UPSTREAM_TIMEOUT_DEFAULT_MS)})`,
  ],
};

describe.each(Object.entries(STATEMENTS))("docs/%s", (name, statements) => {
  it.each(statements)("says: %s", (statement) => {
    expect(doc(name)).toContain(statement);
  });
});
