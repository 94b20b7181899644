import { describe, expect, it } from "vitest";
import {
  AddressNotAllowedError,
  backoffDelayMs,
  deliverWebhook,
  type DeliveryDeps,
  type SendWebhook,
} from "./webhookDelivery";
import { verifyWebhookSignature } from "./webhookSignature";

const policy = { attempts: 4, baseDelayMs: 1_000, maxDelayMs: 5_000, timeoutMs: 1_000 };

describe("backoffDelayMs (equal jitter)", () => {
  it("doubles per attempt up to the cap, half fixed and half random", () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, policy, () => 0))).toEqual([500, 1_000, 2_000, 2_500, 2_500]);
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(n, policy, () => 0.999_999))).toEqual([
      1_000, 2_000, 4_000, 5_000, 5_000,
    ]);
    expect(backoffDelayMs(2, policy, () => 0.5)).toBe(1_500);
  });
});

/** Deliveries against a scripted receiver, with an injected clock that the sleeps advance. */
function run(answers: (number | Error)[], attempts = policy.attempts) {
  let now = Date.UTC(2026, 10, 25, 2, 0, 0);
  const sent: { headers: Record<string, string>; body: string; at: number }[] = [];
  const sleeps: number[] = [];
  const send: SendWebhook = async (_url, init) => {
    sent.push({ headers: init.headers, body: init.body, at: now });
    const answer = answers[sent.length - 1] ?? 200;
    if (answer instanceof Error) throw answer;
    return { status: answer };
  };
  const results: string[] = [];
  const deps: DeliveryDeps = {
    send,
    policy: { ...policy, attempts },
    clock: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    random: () => 0.5,
    onAttempt: (r) => results.push(r),
  };
  const outcome = deliverWebhook(
    { url: "https://hooks.example.com/x", secret: "whsec_s", alertId: "alert-1", body: '{"a":1}' },
    deps,
  );
  return { outcome, sent, sleeps, results };
}

describe("deliverWebhook", () => {
  it("delivers on the first 2xx, signed, with the alert id and attempt number", async () => {
    const r = run([204]);
    expect(await r.outcome).toEqual({ outcome: "delivered", attempts: 1, httpStatus: 204, error: null });
    const { headers, body, at } = r.sent[0]!;
    expect(headers).toMatchObject({
      "content-type": "application/json",
      "sluice-alert-id": "alert-1",
      "sluice-alert-attempt": "1",
    });
    expect(verifyWebhookSignature("whsec_s", body, headers["sluice-signature"]!, at)).toBe(true);
    expect(r.results).toEqual(["ok"]);
  });

  it("retries 5xx, 429 and no answer with growing waits, each attempt signed at its own time", async () => {
    const r = run([500, 429, new Error("connect ECONNREFUSED"), 200]);
    expect(await r.outcome).toEqual({ outcome: "delivered", attempts: 4, httpStatus: 200, error: null });
    expect(r.sleeps).toEqual([750, 1_500, 3_000]);
    expect(r.sent.map((s) => s.headers["sluice-alert-attempt"])).toEqual(["1", "2", "3", "4"]);
    for (const s of r.sent)
      expect(verifyWebhookSignature("whsec_s", s.body, s.headers["sluice-signature"]!, s.at, 1)).toBe(true);
    expect(r.sent[3]!.headers["sluice-signature"]).toMatch(new RegExp(`^t=${Math.floor(r.sent[3]!.at / 1000)},`));
    expect(r.results).toEqual(["http_error", "http_error", "no_answer", "ok"]);
  });

  it("gives up after the bounded attempts with the last reason", async () => {
    const r = run([503, 503, 503, 503, 200]);
    expect(await r.outcome).toEqual({
      outcome: "failed",
      attempts: 4,
      httpStatus: 503,
      error: "receiver answered 503",
    });
    expect(r.sleeps).toHaveLength(3);
  });

  it.each([
    ["a 400", [400], { httpStatus: 400, error: "receiver answered 400" }],
    ["a redirect", [302], { httpStatus: 302, error: "redirect 302 (not followed)" }],
    [
      "a refused address",
      [new AddressNotAllowedError("address 10.0.0.1 is not allowed")],
      { httpStatus: null, error: "address 10.0.0.1 is not allowed" },
    ],
  ])("does not retry %s", async (_name, answers, expected) => {
    const r = run(answers as (number | Error)[]);
    expect(await r.outcome).toEqual({ outcome: "failed", attempts: 1, ...expected });
    expect(r.sleeps).toEqual([]);
  });

  it("reports a timeout as such", async () => {
    const r = run([Object.assign(new Error("aborted"), { name: "TimeoutError" })], 1);
    expect(await r.outcome).toMatchObject({ outcome: "failed", error: "timed out" });
  });
});
