/**
 * Admin token secrets: `sluice_tok_<32 base62>` (lib/common/apiKeyFormat.ts), shown once at
 * creation. Only the SHA-256 of the whole token is stored, as for API keys
 * (lib/policy/keys/apiKeySecret.ts): a fast hash fits a 190-bit random secret (nothing to guess from a
 * dictionary), and it is computed on every admin call. The hash is also the lookup key (a unique
 * index), so a presented token is found in one query without a scan.
 */
import { ADMIN_TOKEN_PATTERN, ADMIN_TOKEN_PREFIX, ADMIN_TOKEN_SECRET_LENGTH } from "../../common/apiKeyFormat";
import { randomBase62 } from "../../common/ids";
import { hashKey } from "../../policy/keys/apiKeySecret";

export interface MintedToken {
  /** The whole token, shown once. */
  token: string;
  secretHash: string;
}

export function mintToken(): MintedToken {
  const token = `${ADMIN_TOKEN_PREFIX}${randomBase62(ADMIN_TOKEN_SECRET_LENGTH)}`;
  return { token, secretHash: hashKey(token) };
}

/** Whether a presented bearer credential is shaped like an admin token (else no lookup is made). */
export function isAdminTokenShape(presented: string): boolean {
  return ADMIN_TOKEN_PATTERN.test(presented);
}

export { hashKey as hashToken };
