/**
 * `lastUsedAt` of admin tokens, off the request path: a use is noted in memory and written in one
 * batched update at most once a minute (KeyUsage, lib/policy/keys/keyUsage.ts), so each
 * token's row is written at most once a minute per instance and the figure is up to a minute stale.
 */
import { KeyUsage } from "../../policy/keys/keyUsage";
import { touchTokens } from "./tokenStore";

export const TOKEN_USAGE_FLUSH_MS = 60_000;

const shared = globalThis as typeof globalThis & { __sluiceTokenUsage?: KeyUsage };

/** This process's token usage recorder. */
export function tokenUsage(): KeyUsage {
  shared.__sluiceTokenUsage ??= new KeyUsage(touchTokens, TOKEN_USAGE_FLUSH_MS);
  return shared.__sluiceTokenUsage;
}
