/**
 * Method-override headers: `X-HTTP-Method-Override`, `X-HTTP-Method` and `X-Method-Override` ask
 * frameworks (Express's method-override, ASP.NET, Laravel, Spring's filter, Google APIs) to treat a
 * request as another method. Rules that named only the method on the request line were escaped by
 * them: `GET /api/v1/login` with `X-HTTP-Method-Override: POST` reached the upstream as a POST past a
 * POST-only limit.
 *
 * Contract
 * - `overriddenMethod(headers)`: the method the request asks to be treated as (upper case), or
 *   undefined when it sends none of the headers. The request is then matched by rules under BOTH
 *   methods (lib/policy/compiled/effectiveRules.ts `rulesForRequest`): whether the API behind Sluice
 *   honours the override or not, no rule is escaped. The headers are forwarded as sent, so APIs that
 *   rely on them keep working (clients behind proxies that allow only GET and POST).
 * - An ambiguous override is refused (`{ problem }`: the caller answers 400): a value that is not an
 *   HTTP method token, one header sent several times, or the headers naming different methods.
 *   Frameworks read these headers in different orders and take the first or the last of a
 *   repeated one, so no single reading could be the one the API makes.
 * - The same for forward auth: the headers are the client's, passed on by the proxy.
 * Override in a query parameter or form field (`_method`) is not seen: Sluice reads no body.
 */
export const METHOD_OVERRIDE_HEADERS = ["x-http-method-override", "x-http-method", "x-method-override"] as const;

/** An HTTP method name (RFC 9110 5.6.2 token), at most 32 characters. */
export const HTTP_METHOD_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Z-]{1,32}$/;

/** `headersDistinct` of a node request: each header's values, one per line it was sent on. */
export type DistinctHeaders = Readonly<Record<string, string[] | undefined>>;

/** Whether the request sends any override header: a plain lookup, so most requests never build `headersDistinct`. */
export function sendsMethodOverride(headers: Readonly<Record<string, unknown>>): boolean {
  return METHOD_OVERRIDE_HEADERS.some((name) => headers[name] !== undefined);
}

export function overriddenMethod(headers: DistinctHeaders): string | undefined | { problem: string } {
  let method: string | undefined;
  for (const name of METHOD_OVERRIDE_HEADERS) {
    const values = headers[name];
    if (values === undefined) continue;
    if (values.length > 1)
      return { problem: `The request sends ${name} more than once: which method it asks for is ambiguous.` };
    const value = values[0]!.trim().toUpperCase();
    if (!HTTP_METHOD_TOKEN.test(value)) return { problem: `${name} must name one HTTP method.` };
    if (method !== undefined && method !== value)
      return { problem: `The method-override headers name different methods (${method}, ${value}).` };
    method = value;
  }
  return method;
}
