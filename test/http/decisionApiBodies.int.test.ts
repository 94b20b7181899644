/**
 * POST /api/v1/check however its body arrives (one built server, `npm run build` first): with the
 * headers, after them, chunked, empty, not JSON, over the contract's 64 KiB. The data plane reads a
 * body that came with the headers at once and waits for one still on its way
 * (lib/dataplane/routes.ts checkPlan): the answers and the charges must not depend on which.
 */
import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import type { CreatedKey } from "@/test/support/adminClient";
import { enforcementBed, HOUR_MS } from "@/test/support/enforcementBed";

const bed = enforcementBed("http-check-bodies");
const { fixture } = bed;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/**
 * POST /api/v1/check on a keep-alive connection of its own, sending `parts` one by one, 100 ms
 * apart, the headers flushed first when `headersFirst`; chunked unless `length` is given (the
 * Content-Length sent, whatever follows); `unfinished`: the request is never ended.
 */
function post(
  key: string,
  parts: string[],
  options: { length?: number; headersFirst?: boolean; unfinished?: boolean } = {},
) {
  const url = new URL("/api/v1/check", bed.url);
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  if (options.length !== undefined) headers["content-length"] = String(options.length);
  return new Promise<Answer>((resolve, reject) => {
    const agent = new http.Agent({ keepAlive: true });
    const req = http.request(url, { method: "POST", headers, agent }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => {
        agent.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) });
      });
    });
    // Writing on after a refusal may fail (the server closed): the answer is what is checked.
    req.on("error", reject);
    void (async () => {
      if (options.headersFirst) {
        req.flushHeaders();
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const [i, part] of parts.entries()) {
        if (i > 0) await new Promise((r) => setTimeout(r, 100));
        if (req.destroyed) return;
        req.write(part);
      }
      if (!options.unfinished) req.end();
    })();
  });
}

const body = (identifier: string) => JSON.stringify({ identifier, rule: "per-user" });
const len = (text: string) => Buffer.byteLength(text);

describe("POST /api/v1/check: how the body arrives", () => {
  let key: CreatedKey;

  beforeAll(async () => {
    const made = await fixture([
      { name: "per-user", scope: "identifier", algorithm: "sliding_log", limit: 3, windowMs: HOUR_MS },
    ]);
    key = made.keys[0]!;
  });

  it("the same verdicts and charges whether the body comes with the headers, after them, or chunked", async () => {
    const text = body("user-a");
    const half = Math.floor(text.length / 2);
    const answers = [
      await post(key.key, [text], { length: len(text) }),
      await post(key.key, [text], { length: len(text), headersFirst: true }),
      await post(key.key, [text.slice(0, half), text.slice(half)], { length: len(text) }),
      await post(key.key, [text.slice(0, half), text.slice(half)]),
    ];
    expect(answers.map((a) => [a.status, a.body.allowed, a.body.remaining])).toEqual([
      [200, true, 2],
      [200, true, 1],
      [200, true, 0],
      [200, false, 0],
    ]);
    for (const a of answers) expect(a.headers.connection).not.toBe("close");
  });

  it("an empty body, or one that is not JSON, is 400 and charges nothing", async () => {
    for (const [parts, length] of [
      [[], 0],
      [["{not json"], 9],
      [["  "], 2],
    ] as const) {
      const answer = await post(key.key, [...parts], { length });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ status: 400, title: "Bad Request" });
    }
    expect((await post(key.key, ["{not", " json"])).status).toBe(400);
    const fresh = body("user-b");
    expect((await post(key.key, [fresh], { length: len(fresh) })).body).toMatchObject({ remaining: 2 });
  });

  it("over 64 KiB, declared or chunked, is 413 and the connection is closed", async () => {
    const declared = await post(key.key, ['{"identifier":"'], { length: 70_000, unfinished: true });
    expect(declared.status).toBe(413);
    expect(declared.headers.connection).toBe("close");
    const big = JSON.stringify({ identifier: "x".repeat(70_000), rule: "per-user" });
    const chunked = await post(key.key, [big.slice(0, 35_000), big.slice(35_000)]);
    expect(chunked.status).toBe(413);
    expect(chunked.headers.connection).toBe("close");
  });
});
