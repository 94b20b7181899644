/**
 * Operator passwords: argon2id through @node-rs/argon2 (Rust, prebuilt per platform, no install
 * script; hashing runs on libuv's thread pool, so a login never blocks the event loop that
 * serves rate-limit decisions).
 *
 * - Parameters: OWASP's argon2id baseline, m = 19 MiB, t = 2, p = 1, 16-byte salt, 32-byte tag.
 * - Stored as the PHC string (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`), so the parameters
 *   travel with each hash and can be raised later without a migration.
 * - `verifyPassword` compares in constant time (inside the library) and answers false, never
 *   throws, for a wrong password or a malformed stored hash.
 * - `verifyNothing` does the same work against a fixed hash: the login answers an unknown email
 *   in the time a known one takes.
 */
import "server-only";
import { hash, verify, type Algorithm, type Options } from "@node-rs/argon2";

/** `Algorithm.Argon2id`: the library declares an ambient const enum, unusable under isolatedModules. */
const ARGON2ID = 2 as Algorithm;

export const ARGON2ID_OPTIONS: Options = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
};

export async function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID_OPTIONS);
}

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/** Verifies `password` against a hash no password matches; always false, as slow as a real check. */
export async function verifyNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword(`no operator has this password ${Math.random()}`);
  await verifyPassword(await dummyHash, password);
  return false;
}
