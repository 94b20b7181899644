/**
 * API key format, hashing and verification.
 *
 * A key reads `sluice_<keyId>_<secret>` (its shape: lib/common/apiKeyFormat.ts). Only SHA-256 of
 * the whole key is stored: a fast hash is right for a high-entropy random secret (no dictionary to
 * attack), and verification stays cheap enough for the request path. Comparison is constant-time.
 */
import { hash, timingSafeEqual } from "node:crypto";
import { KEY_PATTERN, KEY_PREFIX, KEY_SECRET_LENGTH } from "../../common/apiKeyFormat";
import { randomBase62 } from "../../common/ids";

export interface MintedKey {
  /** The whole key, shown once. */
  key: string;
  /** The public part, safe to list: `sluice_<keyId>`. */
  prefix: string;
  secretHash: string;
}

/** SHA-256 of the whole key, in hex (as stored). */
export function hashKey(key: string): string {
  return hash("sha256", key, "hex");
}

export function publicPrefix(keyId: string): string {
  return `${KEY_PREFIX}${keyId}`;
}

export function mintKey(keyId: string): MintedKey {
  const key = `${publicPrefix(keyId)}_${randomBase62(KEY_SECRET_LENGTH)}`;
  return { key, prefix: publicPrefix(keyId), secretHash: hashKey(key) };
}

/** The key id a presented key claims, or null when it is not shaped like a Sluice key. */
export function keyIdOf(presented: string): string | null {
  return KEY_PATTERN.exec(presented)?.[1] ?? null;
}

/**
 * Whether `presented` hashes to `secretHash`, compared in constant time. On every request: the
 * digest as bytes in one call (crypto.hash), not a Hash object and a hex string decoded again.
 */
export function verifyKey(presented: string, secretHash: string): boolean {
  const a = hash("sha256", presented, "buffer");
  const b = Buffer.from(secretHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
