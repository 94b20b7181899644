/**
 * A response as a plain value: status, headers and a text body (null: none). What the data plane
 * (lib/dataplane) writes to a Node response without building a web `Response`, and what the
 * shared answers (problems, refusals) are made as, so the admin API (web `Response`, through
 * `toResponse`) and the data plane give the same bytes.
 */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

export function toResponse(reply: Reply): Response {
  return new Response(reply.body, { status: reply.status, headers: reply.headers });
}

export function jsonReply(value: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(value) };
}

/** `reply` with `headers` added (a copy: replies may be shared). */
export const withHeaders = (reply: Reply, headers: Record<string, string>): Reply => ({
  ...reply,
  headers: { ...reply.headers, ...headers },
});
