/**
 * Sluice's own cookies never cross the gateway, in either direction (pure; applied by
 * lib/dataplane/gateway/forwardToUpstream.ts to what lib/dataplane/gateway/forwardHeaders.ts built).
 *
 * A browser logged in to the dashboard sends its session cookie (`sluice_session`, or
 * `__Host-sluice_session` over HTTPS: lib/control/auth/sessionCookie.ts) with every request to the
 * same host, the gateway's included; and an upstream could set a cookie of that name on Sluice's
 * host. So:
 * - to the upstream: the `Cookie` header without any pair whose name is Sluice's (`sluice_*`, with or
 *   without a `__Host-`/`__Secure-` prefix); dropped when nothing else is left. An operator's
 *   session would otherwise be handed to every upstream.
 * - to the client: every upstream `Set-Cookie` for such a name dropped (an upstream cannot fix or
 *   replace an operator's session), and `X-Content-Type-Options: nosniff` added when the upstream
 *   sent none (an answer from Sluice's origin must not be sniffed into HTML or script).
 */
import type { HeaderMap } from "./forwardHeaders";

const SLUICE_COOKIE_NAME = /^(?:__Host-|__Secure-)?sluice_/i;

const isSluiceCookie = (pair: string): boolean => SLUICE_COOKIE_NAME.test(pair.trimStart());

/** `headers` (to the upstream) with Sluice's cookies taken out of `Cookie`. */
export function withoutSluiceCookies(headers: HeaderMap): HeaderMap {
  const cookie = headers.cookie;
  if (cookie === undefined) return headers;
  const kept = [cookie]
    .flat()
    .flatMap((line) => line.split(";"))
    .filter((pair) => pair.trim() !== "" && !isSluiceCookie(pair))
    .map((pair) => pair.trim());
  const out = { ...headers };
  if (kept.length > 0) out.cookie = kept.join("; ");
  else delete out.cookie;
  return out;
}

/** `headers` (to the client) without Set-Cookie for Sluice's names, with `nosniff` unless the upstream set it. */
export function guardedAnswerHeaders(headers: HeaderMap): HeaderMap {
  const out = { ...headers };
  const setCookie = out["set-cookie"];
  if (setCookie !== undefined) {
    const kept = [setCookie].flat().filter((line) => !isSluiceCookie(line));
    if (kept.length > 0) out["set-cookie"] = kept;
    else delete out["set-cookie"];
  }
  out["x-content-type-options"] ??= "nosniff";
  return out;
}
