/**
 * The gRPC transport limits of Envoy's rate limit service (docs/envoy.md, Operations), with a real
 * @grpc/grpc-js client and a limiter that holds its decisions until the test lets them go:
 * - concurrent streams: past the server's HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS, a connection's
 *   further calls wait (never more in flight than the setting) and are answered once others end;
 * - keepalive: a client pinging far more often than Envoy's `connection_keepalive` (every second,
 *   with or without calls) is never dropped, and its calls keep working on the same channel.
 * Bounded waits only; no timing assertions.
 */
import { connectivityState, credentials, type Client, type ServiceError } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import type { Limiter } from "@/lib/limiter/decide";
import type { Decision } from "@/lib/limiter/types";
import { compileRule } from "@/lib/policy/compiled/effectiveRules";
import type { TenantAccess } from "@/lib/policy/compiled/accessLoader";
import { ruleListSchema } from "@/lib/policy/rules/ruleSchema";
import { rlsProto } from "./rlsProto";
import { MAX_CONCURRENT_STREAMS, startRlsServer } from "./rlsServer";

const TENANT: TenantAccess = {
  id: "Transp01",
  name: "t",
  rules: ruleListSchema
    .parse([
      {
        name: "per-address",
        scope: "descriptor",
        limit: 1_000,
        windowMs: 60_000,
        match: { descriptor: [{ key: "remote_address" }] },
      },
    ])
    .map((rule, i) => compileRule(rule, String(i + 1), false)),
  keys: new Map(),
};

/** A limiter that admits everything, holding each decision until `release()`; counts calls in flight. */
function heldLimiter() {
  let waiting: (() => void)[] = [];
  let held = true;
  const state = { inFlight: 0, peak: 0, release: () => undefined as void };
  const limiter = {
    async decide(rules): Promise<Decision> {
      state.inFlight++;
      state.peak = Math.max(state.peak, state.inFlight);
      if (held) await new Promise<void>((resolve) => waiting.push(resolve));
      state.inFlight--;
      return {
        allowed: true,
        unavailable: false,
        retryAfterMs: 0,
        nowMs: Date.now(),
        results: rules.map((rule) => ({
          rule,
          allowed: true,
          limit: rule.limit,
          remaining: rule.limit - 1,
          resetMs: 1_000,
          retryAfterMs: 0,
          nextMs: 1_000,
          source: "redis" as const,
        })),
      };
    },
  } as Pick<Limiter, "decide"> as Limiter;
  state.release = () => {
    held = false;
    for (const resolve of waiting) resolve();
    waiting = [];
  };
  return { limiter, state };
}

type Unary = (
  r: unknown,
  o: { deadline: number },
  cb: (e: ServiceError | null, a: { overall_code: string }) => void,
) => void;
const call = (client: Client, ip: string) =>
  new Promise<string>((resolve) =>
    (client as unknown as Record<string, Unary>).ShouldRateLimit!.call(
      client,
      { domain: TENANT.id, descriptors: [{ entries: [{ key: "remote_address", value: ip }] }] },
      { deadline: Date.now() + 20_000 },
      (error, answer) => resolve(error ? `error ${error.code}` : answer.overall_code),
    ),
  );
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("concurrent streams per connection", () => {
  it("the default is 1,000 (Envoy opens more connections past it)", () => {
    expect(MAX_CONCURRENT_STREAMS).toBe(1_000);
  });

  it("past the limit a connection's calls wait for a stream, and every call is answered", async () => {
    const { limiter, state } = heldLimiter();
    const server = await startRlsServer({
      host: "127.0.0.1",
      port: 0,
      maxConcurrentStreams: 2,
      deps: { tenant: (id) => (id === TENANT.id ? TENANT : undefined), limiter },
    });
    const client = new (rlsProto().RateLimitService)(`127.0.0.1:${server.port}`, credentials.createInsecure());
    try {
      const answers = Promise.all(Array.from({ length: 5 }, (_, i) => call(client, `10.0.0.${i + 1}`)));
      for (let i = 0; i < 200 && state.inFlight < 2; i++) await sleep(25);
      expect(state.inFlight).toBe(2);
      // Held a while longer: the other three still wait for a stream of this connection.
      await sleep(300);
      expect(state.peak).toBe(2);
      state.release();
      expect(await answers).toEqual(["OK", "OK", "OK", "OK", "OK"]);
    } finally {
      state.release();
      client.close();
      await server.stop(1_000);
    }
  }, 30_000);
});

describe("keepalive", () => {
  it("a client pinging every second, idle or not, stays connected and keeps calling", async () => {
    const { limiter, state } = heldLimiter();
    state.release();
    const server = await startRlsServer({
      host: "127.0.0.1",
      port: 0,
      deps: { tenant: (id) => (id === TENANT.id ? TENANT : undefined), limiter },
    });
    const client = new (rlsProto().RateLimitService)(`127.0.0.1:${server.port}`, credentials.createInsecure(), {
      "grpc.keepalive_time_ms": 1_000,
      "grpc.keepalive_timeout_ms": 5_000,
      "grpc.keepalive_permit_without_calls": 1,
    });
    const channel = client.getChannel();
    const states: connectivityState[] = [];
    let watching = true;
    const watch = (current: connectivityState) => {
      if (!watching) return;
      channel.watchConnectivityState(current, Date.now() + 60_000, () => {
        const next = channel.getConnectivityState(false);
        states.push(next);
        watch(next);
      });
    };
    try {
      expect(await call(client, "10.1.0.1")).toBe("OK");
      watch(channel.getConnectivityState(false));
      // About five pings of an idle channel, then a call on it.
      await sleep(5_500);
      expect(await call(client, "10.1.0.2")).toBe("OK");
      expect(channel.getConnectivityState(false)).toBe(connectivityState.READY);
      // Never dropped: the channel stayed READY throughout (no GOAWAY, no reconnect).
      expect(states).toEqual([]);
    } finally {
      watching = false;
      client.close();
      await server.stop(1_000);
    }
  }, 30_000);
});
