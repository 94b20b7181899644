/**
 * The gateway's own error answers (502, 504) written on a Node response: problem+json like every
 * error under /api (lib/http/problem.ts), from the one code table (lib/http/errors.ts), with the
 * decision's rate-limit headers (the request was admitted and charged). Writes nothing once the
 * response has started or the client is gone.
 */
import type { ServerResponse } from "node:http";
import { ERROR_STATUS, ERROR_TITLE } from "../../http/errors";
import { PROBLEM_TYPE } from "../../http/problem";

export function writeGatewayProblem(
  res: ServerResponse,
  code: "upstream_unreachable" | "upstream_timeout",
  detail: string,
  rateLimitHeaders: Record<string, string>,
): void {
  if (res.headersSent || res.destroyed) return;
  const status = ERROR_STATUS[code];
  const body = JSON.stringify({ type: "about:blank", title: ERROR_TITLE[code], status, detail });
  res.writeHead(status, {
    ...rateLimitHeaders,
    "content-type": PROBLEM_TYPE,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "content-length": Buffer.byteLength(body),
  });
  res.end(body);
}
