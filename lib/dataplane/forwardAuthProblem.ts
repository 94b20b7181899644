/**
 * Forward auth's refusals carry their problem body in a header too, `X-Sluice-Problem`, for
 * proxies that pass only the decision's headers on: nginx's auth_request never sends the
 * subrequest's body to the client, so deploy/nginx/sluice.conf answers with this header (read
 * with auth_request_set) and the client gets Sluice's own problem (`violated-policies`,
 * `retryAfterMs`, ...) instead of one nginx made up. Caddy and Traefik pass the body itself.
 *
 * The value is the body's JSON with every character outside printable ASCII written as a `\uXXXX`
 * escape: the same JSON document, and a valid header value whatever a detail quotes.
 */
import type { Reply } from "../http/reply";

export const PROBLEM_HEADER = "x-sluice-problem";

/** `json` with its non-printable-ASCII characters escaped (JSON.stringify already escapes controls). */
export function asciiJson(json: string): string {
  return json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** `reply` with `X-Sluice-Problem` when it is a refusal with a body; an admission is left as it is. */
export function withProblemHeader(reply: Reply): Reply {
  if (reply.status < 400 || reply.body === null) return reply;
  return { ...reply, headers: { ...reply.headers, [PROBLEM_HEADER]: asciiJson(reply.body) } };
}
