/**
 * Ids of tenants and API keys: random base62 characters (8: 47.6 bits; lib/common/apiKeyFormat.ts).
 *
 * They are short because every Redis counter key carries them (lib/limiter/keys.ts), and Redis
 * memory per client is dominated by key length. Uniqueness is enforced by the primary key: a
 * collision (about 1 in 10^7 at 10^4 rows) fails the insert, which the stores retry with a new id.
 */
import { randomInt } from "node:crypto";
import { ID_LENGTH, ID_PATTERN } from "./apiKeyFormat";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A random string over base62 (crypto-random, no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

export function newId(): string {
  return randomBase62(ID_LENGTH);
}

export function isId(value: string): boolean {
  return ID_PATTERN.test(value);
}
