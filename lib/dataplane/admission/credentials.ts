/**
 * The API key a request presents: `Authorization: Bearer <key>`, else `x-api-key: <key>` (so a
 * client behind a gateway that uses Authorization for its own scheme can still send a key).
 * Returns null when none is presented; a malformed one is returned as is (and fails to verify).
 */
export interface HeaderSource {
  get(name: string): string | null | undefined;
  /**
   * Each value of a header, one per line it was sent on (node's `headersDistinct`, from rawHeaders:
   * `get` joins repeated lines with ", "); absent: the source cannot tell repeats apart.
   */
  all?(name: string): readonly string[] | undefined;
}

/** `headers`: a web `Headers`, or any getter of lower-case header names. */
export function presentedKey(headers: HeaderSource): string | null {
  const auth = headers.get("authorization");
  const bearer = auth ? /^Bearer\s+(\S+)\s*$/i.exec(auth) : null;
  if (bearer) return bearer[1]!;
  const key = headers.get("x-api-key")?.trim();
  if (key) return key;
  return auth || null;
}
