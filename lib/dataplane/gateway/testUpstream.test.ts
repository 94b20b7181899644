import { describe, expect, it } from "vitest";
import type { Dispatcher } from "undici";
import { testUpstream } from "./testUpstream";

/** A dispatcher whose `request` answers `status`, or fails with `error`. */
function fake(answer: { status?: number; error?: Error }, seen: Dispatcher.RequestOptions[] = []): Dispatcher {
  return {
    request: async (options: Dispatcher.RequestOptions) => {
      seen.push(options);
      if (answer.error) throw answer.error;
      return { statusCode: answer.status, body: { dump: async () => undefined } };
    },
  } as unknown as Dispatcher;
}

const clock = () => {
  let t = 0;
  return () => (t += 40);
};

describe("testUpstream (issue 31, point 4: Test connection)", () => {
  it("one plain GET to the upstream URL; any status below 500 is reachable", async () => {
    const seen: Dispatcher.RequestOptions[] = [];
    const result = await testUpstream(
      { url: "http://orders.example.com/v2?x=1", timeoutMs: 2_500 },
      fake({ status: 404 }, seen),
      clock(),
    );
    expect(result).toEqual({ ok: true, status: 404, latencyMs: 40, error: null });
    expect(seen[0]).toMatchObject({
      origin: "http://orders.example.com",
      path: "/v2?x=1",
      method: "GET",
      headersTimeout: 2_500,
    });
  });

  it("a 5xx, a refused connection and a link-local address are failures, in words", async () => {
    expect(
      await testUpstream({ url: "http://u.example", timeoutMs: 100 }, fake({ status: 503 }), clock()),
    ).toMatchObject({
      ok: false,
      status: 503,
      error: "the upstream answered 503",
    });
    const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    expect(
      await testUpstream({ url: "http://u.example", timeoutMs: 100 }, fake({ error: refused }), clock()),
    ).toMatchObject({
      ok: false,
      status: null,
      error: "connection refused",
    });
    const seen: Dispatcher.RequestOptions[] = [];
    const metadata = await testUpstream(
      { url: "http://169.254.169.254/latest", timeoutMs: 100 },
      fake({ status: 200 }, seen),
    );
    expect(metadata.ok).toBe(false);
    expect(metadata.error).toMatch(/link-local/);
    expect(seen).toHaveLength(0);
  });
});
