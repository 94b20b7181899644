// @ts-check
/**
 * The admin token's one rule, in plain JavaScript so the production server (scripts/server.mjs)
 * can refuse to start before Next loads, and config() (lib/config/config.ts) applies the same rule.
 * SLUICE_ADMIN_TOKEN acts as `admin` on the whole admin API: a short one can be guessed.
 */

/** Characters a SLUICE_ADMIN_TOKEN must have at least. */
export const MIN_ADMIN_TOKEN_CHARS = 32;

/**
 * Why `token` cannot be the admin token, or null when it can (also when it is unset: the admin
 * API then takes operator sessions only).
 * @param {string | undefined} token
 * @returns {string | null}
 */
export function adminTokenProblem(token) {
  if (token === undefined || token === "") return null;
  if (token.length < MIN_ADMIN_TOKEN_CHARS) {
    return `SLUICE_ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_CHARS} characters (it has ${token.length}); make one with: openssl rand -base64 33`;
  }
  return null;
}
