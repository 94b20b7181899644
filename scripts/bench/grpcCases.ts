/**
 * Envoy's rate limit service (issue 30, "Speed"), `BENCH_ONLY=grpc`: `ShouldRateLimit` calls per
 * second from a real @grpc/grpc-js client in this process (one channel, as one Envoy worker has),
 * with one and with three descriptors (grpc/rlsWorkload.ts) at 1, 64 and 256 calls in flight,
 * against two servers, each in its own process and both up for the whole part:
 * - `ceiling`: a bare @grpc/grpc-js server (dataplane/baselineServers.ts `grpc`) making the same
 *   Redis call per call (Sluice's limiter: one decide.lua EVALSHA over one token_bucket rule per
 *   descriptor) and answering OK: what a gRPC server with the limiter and nothing else can do;
 * - `sluice`: the production server with SLUICE_GRPC_PORT set (lib/dataplane/envoy/rlsServer.ts),
 *   the domain a tenant whose `descriptor` rules match each descriptor.
 * Each case is measured on the ceiling and then on Sluice, one after the other (measure.ts: a
 * warm-up of at least 1 s, then the window); p50/p99 are the client's round trips to the µs.
 * `CPU µs/op` is the server process's CPU per call (/proc/<pid>/stat), `Redis µs/op` Redis's.
 * The goal (goals.ts): Sluice at least 0.6 x the ceiling's calls/s at 256 in flight.
 */
import { credentials, type Client, type ServiceError } from "@grpc/grpc-js";
import { rlsProto } from "../../lib/dataplane/envoy/rlsProto";
import { adminClient, deleteTenants } from "../../test/support/adminClient";
import { freePort } from "../../test/support/freePort";
import { startSluice, type SluiceServer } from "../../test/support/sluiceServer";
import { BENCH_DATABASE_URL, redisCpuSeconds, type BenchContext } from "./context";
import { processCpuUs } from "./dataplane/processStats";
import { startBaseline, type Baseline } from "./dataplane/serverLoad";
import { DESCRIPTOR_COUNTS, rlsRequest, rlsRuleInputs, type DescriptorCount } from "./grpc/rlsWorkload";
import { ADMIN_TOKEN, prepareServers, serverEnv } from "./httpSetup";
import { measure, round } from "./measure";
import type { Outcome, RunRow } from "./types";

export const GRPC_IN_FLIGHT = [1, 64, 256] as const;
const SUBJECT = "grpc";

type Answer = { overall_code: string; statuses: { current_limit: { name: string } | null }[] };
type Unary = (request: unknown, callback: (error: ServiceError | null, response: Answer) => void) => void;

interface Target {
  name: "ceiling" | "sluice";
  client: Client;
  pid: number;
  domain: string;
  note: string;
}

function call(client: Client, request: unknown): Promise<{ error: ServiceError | null; response: Answer }> {
  return new Promise((resolve) =>
    (client as unknown as { ShouldRateLimit: Unary }).ShouldRateLimit(request, (error, response) =>
      resolve({ error, response }),
    ),
  );
}

async function connect(port: number): Promise<Client> {
  const client = new (rlsProto().RateLimitService)(`127.0.0.1:${port}`, credentials.createInsecure());
  await new Promise<void>((resolve, reject) =>
    client.waitForReady(Date.now() + 30_000, (error) => (error ? reject(error) : resolve())),
  );
  return client;
}

async function measureCalls(ctx: BenchContext, t: Target, count: DescriptorCount, inFlight: number): Promise<RunRow> {
  const request = rlsRequest(t.domain, count);
  const op = async (): Promise<Outcome> => {
    const { error, response } = await call(t.client, request);
    if (error) return "error";
    return response.overall_code === "OK" ? "ok" : "refused";
  };
  // The server's CPU is read where measure reads Redis's: at the window's two edges.
  const serverCpu: number[] = [];
  const settings = { warmupMs: Math.max(1_000, ctx.settings.warmupMs), durationMs: ctx.settings.durationMs };
  const m = await measure(op, inFlight, settings, async () => {
    serverCpu.push(processCpuUs(t.pid));
    return redisCpuSeconds(ctx.admin);
  });
  const serverUs = serverCpu.length === 2 ? serverCpu[1]! - serverCpu[0]! : Number.NaN;
  const row: RunRow = {
    subject: SUBJECT,
    case: `${t.name}-${count}-descriptor${count > 1 ? "s" : ""}`,
    concurrency: inFlight,
    opsPerSec: Math.round(m.opsPerSec),
    p50Ms: round(m.p50Ms, 3),
    p99Ms: round(m.p99Ms, 3),
    refusedPct: m.ops > 0 ? round((100 * m.refused) / m.ops, 2) : 0,
    errors: m.errors,
    nodeCpuUsPerOp: m.ops > 0 ? round(serverUs / m.ops, 1) : Number.NaN,
    redisCpuUsPerOp: round(m.redisCpuUsPerOp, 1),
    // measure's figure counts the server as "other": take its share of one core out.
    otherCpuPct: Math.round(m.otherCpuPct - (100 * serverUs) / (settings.durationMs * 1000)),
    note: `${t.note}; ${inFlight} in flight on one channel; CPU µs/op = the server process's`,
  };
  ctx.rows.push(row);
  console.log(
    `  ${row.subject} ${row.case.padEnd(24)} in flight ${String(inFlight).padEnd(3)} ${String(row.opsPerSec).padStart(7)} calls/s  p50 ${row.p50Ms} ms  p99 ${row.p99Ms} ms  CPU ${row.nodeCpuUsPerOp} µs/call${row.errors ? `  ERRORS ${row.errors}` : ""}`,
  );
  return row;
}

export async function grpcCases(ctx: BenchContext): Promise<void> {
  prepareServers();
  let ceiling: Baseline | undefined;
  let sluice: SluiceServer | undefined;
  const clients: Client[] = [];
  let tenantId: string | undefined;
  try {
    ceiling = await startBaseline("grpc", { REDIS_URL: ctx.url, BENCH_PREFIX: `${ctx.prefix}grpc-ceiling:` });
    const grpcPort = await freePort();
    sluice = await startSluice({ env: serverEnv(ctx, SUBJECT, { SLUICE_GRPC_PORT: String(grpcPort) }) });
    const admin = adminClient(sluice.url, ADMIN_TOKEN);
    tenantId = (await admin.createTenant(`bench-grpc-${process.pid}`)).id;
    await admin.putTenantRules(tenantId, rlsRuleInputs());
    const targets: Target[] = [
      {
        name: "ceiling",
        client: await connect(ceiling.port),
        pid: ceiling.pid,
        domain: "ceiling",
        note: "bare @grpc/grpc-js server + the same Redis call (decide.lua, 1 token_bucket rule per descriptor)",
      },
      {
        name: "sluice",
        client: await connect(grpcPort),
        pid: sluice.pid,
        domain: tenantId,
        note: "Sluice's ShouldRateLimit (SLUICE_GRPC_PORT), 1 descriptor rule per descriptor, token_bucket",
      },
    ];
    clients.push(...targets.map((t) => t.client));
    // Sluice must decide, not answer the plain OK of an unknown domain or of a call no rule matches.
    const probe = await call(targets[1]!.client, rlsRequest(tenantId, 3));
    const limits = probe.response?.statuses.map((s) => s.current_limit?.name);
    if (probe.error || limits?.join() !== "per-address,per-path,per-user")
      throw new Error(
        `bench: Sluice's ShouldRateLimit did not apply the bench rules (${probe.error?.message ?? JSON.stringify(limits)})`,
      );
    for (const count of DESCRIPTOR_COUNTS)
      for (const inFlight of GRPC_IN_FLIGHT) for (const t of targets) await measureCalls(ctx, t, count, inFlight);
  } finally {
    for (const client of clients) client.close();
    await sluice?.stop();
    await ceiling?.stop();
    if (tenantId) await deleteTenants(BENCH_DATABASE_URL, [tenantId]);
  }
}
