import { describe, expect, it } from "vitest";
import { concurrency, CONCURRENCY_RETRY_MS, releaseLease, type ConcurrencyState } from "./concurrency";

const params = { algorithm: "concurrency" as const, limit: 2, windowMs: 5000, burst: 2 };
const T0 = 1_700_000_000_000;

/** Takes a slot for `id` at `now` when the model admits it; the state after. */
function take(state: ConcurrencyState | undefined, id: string, now: number) {
  const e = concurrency.evaluate(state, params, now, 1, id);
  return { e, state: e.allowed ? e.next!.state : state };
}

describe("concurrency model (injected clock)", () => {
  it("admits `limit` requests in flight, then refuses with retry 1 s and no slot free", () => {
    const a = take(undefined, "a", T0);
    const b = take(a.state, "b", T0 + 1);
    const c = take(b.state, "c", T0 + 2);
    expect([a.e.allowed, b.e.allowed, c.e.allowed]).toEqual([true, true, false]);
    expect(a.e.after.remaining).toBe(1);
    expect(b.e.after.remaining).toBe(0);
    expect(c.e.retryAfterMs).toBe(CONCURRENCY_RETRY_MS);
    expect(c.e.before).toEqual({ remaining: 0, resetMs: 0, nextMs: 0 });
  });

  it("a released slot is free again at once; releasing twice gives nothing back", () => {
    const held = take(take(undefined, "a", T0).state, "b", T0).state;
    const first = releaseLease(held, "a", T0 + 10);
    expect(first.released).toBe(true);
    expect(take(first.state, "c", T0 + 10).e.allowed).toBe(true);
    expect(releaseLease(first.state, "a", T0 + 11).released).toBe(false);
  });

  it("a lease never released expires windowMs after it was taken (a lost instance leaks no slot)", () => {
    const held = take(take(undefined, "a", T0).state, "b", T0 + 1000).state;
    expect(take(held, "c", T0 + params.windowMs - 1).e.allowed).toBe(false);
    const atExpiry = take(held, "c", T0 + params.windowMs);
    expect(atExpiry.e.allowed).toBe(true);
    expect(atExpiry.e.before.remaining).toBe(1);
    // The expired lease is dropped when the set is written; releasing it later reports it expired.
    expect(atExpiry.state!.map((l) => l.id)).toEqual(["b", "c"]);
    expect(releaseLease(held, "a", T0 + params.windowMs).released).toBe(false);
  });

  it("the state lives as long as its longest lease", () => {
    const a = take(undefined, "a", T0);
    const b = take(a.state, "b", T0 + 1500);
    expect(b.e.next!.ttlMs).toBe(params.windowMs);
  });

  it("a cost above the limit can never pass (retry -1)", () => {
    expect(concurrency.evaluate(undefined, params, T0, 3, "x").retryAfterMs).toBe(-1);
  });
});
