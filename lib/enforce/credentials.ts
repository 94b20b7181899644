/**
 * The API key a request presents: `Authorization: Bearer <key>`, or `x-api-key: <key>`.
 * Returns null when none is presented; a malformed one is returned as is (and fails to verify).
 */
export function presentedKey(headers: Headers): string | null {
  const auth = headers.get("authorization");
  if (auth) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return match ? match[1]! : auth;
  }
  const key = headers.get("x-api-key");
  return key ? key.trim() : null;
}
