/**
 * The gRPC server of Envoy's rate limit service: `envoy.service.ratelimit.v3.RateLimitService/
 * ShouldRateLimit` (shouldRateLimit.ts) and `grpc.health.v1.Health` over plaintext HTTP/2
 * (@grpc/grpc-js), as Envoy's `envoy.filters.http.ratelimit` calls it (docs/envoy.md).
 *
 * Contract
 * - `startRlsServer(options)` listens on host:port (port 0: any free one; the bound port is
 *   returned) and resolves once bound; it rejects when the address cannot be bound.
 * - Answers: ShouldRateLimit as shouldRateLimit.ts says (INVALID_ARGUMENT, UNAVAILABLE, or the
 *   response); an unexpected error is logged and answered INTERNAL, never crashing the process.
 *   Messages over `maxMessageBytes` (1 MiB) are refused by grpc-js with RESOURCE_EXHAUSTED before
 *   they are decoded. At most `maxConcurrentStreams` calls per connection (HTTP/2 SETTINGS).
 * - Health: `Check` with service "" or the rate limit service's name answers SERVING (NOT_SERVING
 *   once stopping); another name is NOT_FOUND, as the health checking protocol says. `Watch`
 *   sends the status and ends when the server stops.
 * - Keepalive: client pings are accepted at any interval, with or without calls (Envoy's
 *   `connection_keepalive`, when set, pings at its interval; grpc-js's server polices no ping rate:
 *   the minimum interval below only states gRPC's usual floor), and the server pings an idle client
 *   every 2 h (grpc's default), dropping it when no answer comes in 20 s.
 * - `stop(graceMs)`: health turns NOT_SERVING, no new calls are accepted, calls in flight finish;
 *   those still running after `graceMs` are cancelled.
 */
import {
  Server,
  ServerCredentials,
  status,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
} from "@grpc/grpc-js";
import { rlsProto } from "./rlsProto";
import { shouldRateLimit, type ShouldRateLimitDeps } from "./shouldRateLimit";

export const RLS_SERVICE = "envoy.service.ratelimit.v3.RateLimitService";

export interface RlsServerOptions {
  host: string;
  port: number;
  deps: ShouldRateLimitDeps;
  maxMessageBytes?: number;
  maxConcurrentStreams?: number;
  log?: (line: string, error?: unknown) => void;
}

export interface RlsServer {
  port: number;
  stop(graceMs?: number): Promise<void>;
}

export const MAX_MESSAGE_BYTES = 1024 * 1024;
export const MAX_CONCURRENT_STREAMS = 1_000;

export async function startRlsServer(options: RlsServerOptions): Promise<RlsServer> {
  const log = options.log ?? ((line, error) => console.error(line, error ?? ""));
  const server = new Server({
    "grpc.max_receive_message_length": options.maxMessageBytes ?? MAX_MESSAGE_BYTES,
    "grpc.max_send_message_length": options.maxMessageBytes ?? MAX_MESSAGE_BYTES,
    "grpc.max_concurrent_streams": options.maxConcurrentStreams ?? MAX_CONCURRENT_STREAMS,
    "grpc.keepalive_time_ms": 2 * 60 * 60 * 1000,
    "grpc.keepalive_timeout_ms": 20_000,
    "grpc.keepalive_permit_without_calls": 1,
    "grpc.http2.min_ping_interval_without_data_ms": 10_000,
  });
  const proto = rlsProto();
  let stopping = false;
  const watchers = new Set<ServerWritableStream<unknown, unknown>>();

  server.addService(proto.RateLimitService.service, {
    ShouldRateLimit(call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) {
      shouldRateLimit(options.deps, call.request).then(
        (outcome) => {
          if ("invalid" in outcome) callback({ code: status.INVALID_ARGUMENT, details: outcome.invalid });
          else if ("unavailable" in outcome) callback({ code: status.UNAVAILABLE, details: outcome.unavailable });
          else callback(null, outcome.response);
        },
        (error: unknown) => {
          log("[sluice] ShouldRateLimit failed:", error);
          callback({ code: status.INTERNAL, details: "internal error" });
        },
      );
    },
  });

  const healthOf = (service: unknown): { status: string } | null => {
    if (service !== "" && service !== RLS_SERVICE) return null;
    return { status: stopping ? "NOT_SERVING" : "SERVING" };
  };
  server.addService(proto.Health.service, {
    Check(call: ServerUnaryCall<{ service?: unknown }, unknown>, callback: sendUnaryData<unknown>) {
      const health = healthOf(call.request.service ?? "");
      if (health) callback(null, health);
      else callback({ code: status.NOT_FOUND, details: "unknown service" });
    },
    Watch(call: ServerWritableStream<{ service?: unknown }, unknown>) {
      const health = healthOf(call.request.service ?? "");
      call.write(health ?? { status: "SERVICE_UNKNOWN" });
      if (stopping) return call.end();
      watchers.add(call as ServerWritableStream<unknown, unknown>);
      call.on("cancelled", () => watchers.delete(call as ServerWritableStream<unknown, unknown>));
    },
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${hostPart(options.host)}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });

  return {
    port,
    stop(graceMs = 5_000) {
      stopping = true;
      for (const watcher of watchers) {
        watcher.write({ status: "NOT_SERVING" });
        watcher.end();
      }
      watchers.clear();
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}

/** An IPv6 address in a target needs brackets. */
function hostPart(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}
