import { describe, expect, it } from "vitest";
import { abortableSleep, backoffDelayMs, withRetry } from "./retry";

const answer = (status: number, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : "{}", { status, headers });

/** A scripted server: each call takes the next answer (a Response, or an Error to throw). */
function scripted(answers: (Response | Error)[]) {
  const calls: number[] = [];
  const call = async () => {
    calls.push(calls.length + 1);
    const next = answers.shift();
    if (!next) throw new Error("no more answers");
    if (next instanceof Error) throw next;
    return next;
  };
  return { call, calls };
}

/** Records waits instead of sleeping. */
function sleeps() {
  const waited: number[] = [];
  return { waited, sleep: async (ms: number) => void waited.push(ms) };
}

describe("withRetry", () => {
  it("waits exactly Retry-After after a 429, then returns the success", async () => {
    const server = scripted([answer(429, { "retry-after": "2" }), answer(200)]);
    const { waited, sleep } = sleeps();
    const response = await withRetry(server.call, { sleep, random: () => 0.5 });
    expect(response.status).toBe(200);
    expect(waited).toEqual([2000]);
  });

  it("backs off with full jitter when no Retry-After is given (503, network errors), doubling the ceiling", async () => {
    const server = scripted([answer(503), new Error("ECONNRESET"), answer(503), answer(200)]);
    const { waited, sleep } = sleeps();
    const response = await withRetry(server.call, { maxAttempts: 4, baseDelayMs: 100, sleep, random: () => 0.5 });
    expect(response.status).toBe(200);
    expect(waited).toEqual([50, 100, 200]);
  });

  it("stops after maxAttempts and hands back the last refusal as it is", async () => {
    const server = scripted([
      answer(429, { "retry-after": "1" }),
      answer(429, { "retry-after": "1" }),
      answer(429, { "retry-after": "1" }),
      answer(200),
    ]);
    const { waited, sleep } = sleeps();
    const response = await withRetry(server.call, { maxAttempts: 3, sleep });
    expect(response.status).toBe(429);
    expect(server.calls).toHaveLength(3);
    expect(waited).toEqual([1000, 1000]);
  });

  it("does not wait for a Retry-After longer than maxDelayMs: the refusal is returned at once", async () => {
    const server = scripted([answer(429, { "retry-after": "3600" }), answer(200)]);
    const { waited, sleep } = sleeps();
    const response = await withRetry(server.call, { maxDelayMs: 10_000, sleep });
    expect(response.status).toBe(429);
    expect(waited).toEqual([]);
  });

  it("never retries other statuses (a 404 or 422 will not change)", async () => {
    const server = scripted([answer(422), answer(200)]);
    expect((await withRetry(server.call, { sleep: sleeps().sleep })).status).toBe(422);
    expect(server.calls).toHaveLength(1);
  });

  it("throws the last network error when attempts run out", async () => {
    const server = scripted([new Error("down 1"), new Error("down 2")]);
    await expect(withRetry(server.call, { maxAttempts: 2, sleep: sleeps().sleep })).rejects.toThrow("down 2");
  });

  it("is aborted during a wait by its signal, with the signal's reason", async () => {
    const server = scripted([answer(429, { "retry-after": "5" }), answer(200)]);
    const controller = new AbortController();
    const pending = withRetry(server.call, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("caller gave up")), 20);
    await expect(pending).rejects.toThrow("caller gave up");
    expect(server.calls).toHaveLength(1);
  });
});

describe("backoffDelayMs and abortableSleep", () => {
  it("caps the jittered delay at maxDelayMs", () => {
    expect(backoffDelayMs(20, { baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.999 })).toBe(999);
    expect(backoffDelayMs(1, { baseDelayMs: 100, random: () => 0 })).toBe(0);
  });

  it("rejects at once when the signal is already aborted", async () => {
    await expect(abortableSleep(10_000, AbortSignal.abort(new Error("gone")))).rejects.toThrow("gone");
  });
});
