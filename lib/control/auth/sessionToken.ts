/**
 * Session tokens: 256 random bits, base64url (43 characters), sent to the browser once in the
 * session cookie. Only the SHA-256 (hex) is stored, so a read of the Session table yields nothing
 * that logs anyone in. A fast hash is right here: the token is random, not a password.
 */
import "server-only";
import { createHash, randomBytes } from "node:crypto";

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface MintedSessionToken {
  token: string;
  tokenHash: string;
}

export function hashSessionToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

export function mintSessionToken(): MintedSessionToken {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashSessionToken(token) };
}

/** Whether a cookie value can be a token at all (anything else is refused without a query). */
export function isSessionTokenShape(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}
