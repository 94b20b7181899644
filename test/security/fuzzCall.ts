/**
 * One fuzz case against a route handler, and the invariant every answer must keep whatever the
 * input: the handler does not throw, the status is never 5xx, and every 4xx is
 * `application/problem+json` whose body parses and carries the same status (callRoute checks the
 * last two). `FUZZ_RUNS` scales every fuzzer's case count (e.g. FUZZ_RUNS=10 for a deeper local run);
 * `FUZZ_SEED` shifts every fixed seed, to explore other cases (a failure prints the seed to replay).
 */
import { expect } from "vitest";
import { callRoute, type RouteAnswer, type RouteHandler } from "@/test/support/routeCall";
import { toWellFormed, type WireBody } from "./hostileInput";

export const FUZZ_SCALE = Number(process.env.FUZZ_RUNS ?? "1") || 1;

export const runs = (n: number): number => Math.max(1, Math.round(n * FUZZ_SCALE));

/** A fixed seed per property (from its name), shifted by FUZZ_SEED. */
export function seedOf(name: string): number {
  let h = Number(process.env.FUZZ_SEED ?? "0") | 0;
  for (const c of name) h = (h * 31 + c.codePointAt(0)!) | 0;
  return h;
}

export interface FuzzRequest {
  method: string;
  /** Route pattern, e.g. `api/admin/tenants/[tenantId]/keys`. */
  route: string;
  params: Record<string, string>;
  query: string;
  body?: WireBody;
  headers: Record<string, string>;
}

/** The URL path of the request: parameters percent-encoded as a client would send them. */
export function pathOf(route: string, params: Record<string, string>): string {
  return "/" + route.replace(/\[(\w+)\]/g, (_m, name: string) => encodeURIComponent(toWellFormed(params[name] ?? "x")));
}

export async function fuzzCall(handler: RouteHandler, req: FuzzRequest): Promise<RouteAnswer> {
  const headers = { ...req.headers, ...(req.body?.contentType ? { "content-type": req.body.contentType } : {}) };
  const answer = await callRoute(handler, {
    method: req.method,
    path: pathOf(req.route, req.params) + req.query,
    params: req.params,
    rawBody: req.body?.text,
    headers,
  });
  expectInvariant(`${req.method} ${req.route}`, answer);
  return answer;
}

function expectInvariant(what: string, answer: RouteAnswer): void {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)?.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status >= 400) {
    expect(typeof answer.body.title).toBe("string");
    expect(typeof answer.body.detail).toBe("string");
  }
}

/**
 * The same invariant for an answer read off a socket (test/support/rawHttp.ts): besides, every
 * error is problem+json with the same status in its body (what callRoute checks).
 */
export function checkAnswer(what: string, status: number, headers: Headers, text: string, method = "GET"): RouteAnswer {
  const isJson = /json/.test(headers.get("content-type") ?? "");
  const body: unknown = !text ? null : isJson ? JSON.parse(text) : text;
  const answer: RouteAnswer = { status, headers, body };
  if (status >= 400) expect(headers.get("content-type"), what).toBe("application/problem+json");
  if (method === "HEAD") {
    // No body to read: the headers say what the GET would have answered.
    expect(status, what).toBeLessThan(500);
    expect(text, what).toBe("");
    return answer;
  }
  if (status >= 400) expect((body as { status: number }).status, what).toBe(status);
  expectInvariant(what, answer);
  return answer;
}
