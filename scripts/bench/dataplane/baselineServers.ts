/**
 * The data-plane bench's baselines, each run as its own process (like the Sluice server), so the
 * load generator never shares their event loop:
 * - `ceiling`: a bare node:http server making the same Redis call per request as Sluice's data
 *   plane (Sluice's limiter: decide.lua through EVALSHA, one generous token_bucket rule), answering
 *   a small JSON body: what an HTTP server with the limiter and nothing else can do;
 * - `upstream`: the API behind the proxies, answering a small JSON body;
 * - `proxy`: a bare Node reverse proxy (node:http with a keep-alive Agent, bodies piped) to
 *   UPSTREAM_URL: the gateway's ceiling;
 * - `grpc`: a bare @grpc/grpc-js server of `ShouldRateLimit` (Envoy's .proto, as Sluice loads it)
 *   making the same Redis call as Sluice's for the call's descriptors (../grpc/rlsWorkload.ts: one
 *   decide.lua call over one token_bucket rule per descriptor) and answering OK per descriptor:
 *   the gRPC part's ceiling.
 * Usage: tsx baselineServers.ts <ceiling|upstream|proxy|grpc>; env PORT, REDIS_URL, BENCH_PREFIX,
 * UPSTREAM_URL. Prints "ready" once listening.
 */
import http from "node:http";
import { Server, ServerCredentials, status, type sendUnaryData, type ServerUnaryCall } from "@grpc/grpc-js";
import { Redis } from "ioredis";
import { rlsProto } from "../../../lib/dataplane/envoy/rlsProto";
import { createLimiter, type Limiter } from "../../../lib/limiter/decide";
import type { LimiterRule } from "../../../lib/limiter/types";
import { ceilingRules } from "../grpc/rlsWorkload";

const kind = process.argv[2];
const port = Number(process.env.PORT);
const BODY = JSON.stringify({ ok: true, tenantId: "bench", keyId: "bench", method: "GET", path: "/x" });

function listen(server: http.Server): void {
  server.keepAliveTimeout = 65_000;
  server.listen(port, "127.0.0.1", () => console.log("ready"));
}

/** Sluice's limiter (decide.lua through EVALSHA) on its own connection, under BENCH_PREFIX. */
function benchLimiter(): Limiter {
  const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", {
    lazyConnect: false,
    enableAutoPipelining: false,
  });
  return createLimiter({
    redis,
    prefix: process.env.BENCH_PREFIX ?? "bench:ceiling:",
    timeoutMs: 1_000,
    timeSource: "redis",
  });
}

interface DecodedCall {
  descriptors?: { entries?: { value?: string }[] }[];
}

if (kind === "ceiling") {
  const limiter = benchLimiter();
  const rule: LimiterRule = {
    name: "per-key",
    ref: "1",
    scope: "key",
    algorithm: "token_bucket",
    limit: 1_000_000_000,
    windowMs: 60_000,
    burst: 1_000_000_000,
    cost: 1,
    blockMs: 0,
    failMode: "open",
    mode: "enforce",
  };
  listen(
    http.createServer((req, res) => {
      limiter.decide([rule], { tenantId: "ceiling", keyId: "k" }).then(
        (d) => {
          res.writeHead(d.allowed ? 200 : 429, {
            "content-type": "application/json",
            "content-length": Buffer.byteLength(BODY),
          });
          res.end(BODY);
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    }),
  );
} else if (kind === "upstream") {
  listen(
    http.createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(BODY) });
      res.end(BODY);
    }),
  );
} else if (kind === "proxy") {
  const upstream = new URL(process.env.UPSTREAM_URL!);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  listen(
    http.createServer((req, res) => {
      const out = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
          agent,
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      out.on("error", () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      req.pipe(out);
    }),
  );
} else if (kind === "grpc") {
  const limiter = benchLimiter();
  const rulesByCount = [1, 2, 3].map((n) => ceilingRules(n));
  const server = new Server();
  server.addService(rlsProto().RateLimitService.service, {
    ShouldRateLimit(call: ServerUnaryCall<DecodedCall, unknown>, callback: sendUnaryData<unknown>) {
      const descriptors = call.request.descriptors ?? [];
      const rules = rulesByCount[descriptors.length - 1];
      if (!rules) return callback({ code: status.INVALID_ARGUMENT, details: "1 to 3 descriptors" });
      const attributes: Record<string, string> = {};
      rules.forEach((rule, i) => (attributes[rule.descriptorSlot!] = descriptors[i]!.entries?.[0]?.value ?? ""));
      limiter.decide(rules, { tenantId: "ceiling", attributes }).then(
        (d) =>
          callback(null, {
            overall_code: d.allowed ? "OK" : "OVER_LIMIT",
            statuses: rules.map(() => ({ code: "OK" })),
          }),
        () => callback({ code: status.UNAVAILABLE, details: "redis" }),
      );
    },
  });
  server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (error) => {
    if (error) throw error;
    console.log("ready");
  });
} else {
  console.error(`baselineServers: unknown kind ${kind}`);
  process.exit(2);
}
