/**
 * Calling Next route handlers directly (no server) in integration tests, as a browser or a script
 * would: `callRoute(handler, { method, path, body, headers, params })` builds the Request on
 * `ORIGIN` and answers status, headers and the body (parsed when JSON, else text). Every error answer is checked to be
 * problem+json with a matching `status`, and every answer to be what the OpenAPI document
 * describes for its method, path and status (./answerConformance.ts). `sessionCookieOf` turns a login's Set-Cookie into the
 * Cookie header a browser would send back.
 */
import { expect } from "vitest";
import { assertDocumentedAnswer } from "./answerConformance";

export const ORIGIN = "http://sluice.test";

export type RouteHandler = (
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response>;

export interface RouteAnswer {
  status: number;
  headers: Headers;
  // Arbitrary JSON that tests read field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface RouteCall {
  method?: string;
  path?: string;
  body?: unknown;
  /** Sent as is instead of `body` (hostile-input tests: non-JSON, empty, oversized). */
  rawBody?: string;
  headers?: Record<string, string>;
  params?: Record<string, string>;
}

export async function callRoute(handler: RouteHandler | undefined, init: RouteCall = {}): Promise<RouteAnswer> {
  if (!handler) throw new Error(`the route has no ${init.method ?? "GET"} handler`);
  const request = new Request(ORIGIN + (init.path ?? "/"), {
    method: init.method ?? "GET",
    headers: init.headers ?? {},
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const response = await handler(request, { params: Promise.resolve(init.params ?? {}) });
  const text = await response.text();
  const isJson = /json/.test(response.headers.get("content-type") ?? "");
  const body: unknown = !text ? null : isJson ? JSON.parse(text) : text;
  if (response.status >= 400) {
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect((body as { status: number }).status).toBe(response.status);
  }
  const method = init.method ?? "GET";
  assertDocumentedAnswer({
    method,
    path: init.path ?? "/",
    status: response.status,
    contentType: response.headers.get("content-type"),
    body,
  });
  return { status: response.status, headers: response.headers, body };
}

/** `sluice_session=<token>` from a Set-Cookie header, as the browser sends it back. */
export function sessionCookieOf(answer: RouteAnswer): string {
  const setCookie = answer.headers.get("set-cookie");
  if (!setCookie) throw new Error(`no Set-Cookie in the answer (status ${answer.status})`);
  return setCookie.split(";")[0]!;
}
