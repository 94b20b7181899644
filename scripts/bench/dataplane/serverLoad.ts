/**
 * What the parts that load a server process share (dataplaneCases.ts, identityCases.ts,
 * grpcCases.ts): starting a baseline server of dataplane/baselineServers.ts in its own process, an
 * autocannon load of 100 connections from this process with its p50/p99 to the µs
 * (../httpLatency.ts), and `measureServer`: warm-up, then the measured window with the CPU time the
 * server process (/proc/<pid>/stat) and Redis (INFO cpu) spent per request, and for a Sluice server
 * its RSS peak. Every row is pushed to `ctx.rows` and printed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import autocannon from "autocannon";
import { freePort } from "../../../test/support/freePort";
import { redisCpuSeconds, type BenchContext } from "../context";
import { LatencySamples } from "../httpLatency";
import { httpLoadRow } from "../httpLoadRow";
import { round } from "../measure";
import type { RunRow } from "../types";
import { processCpuUs, withRssPeak } from "./processStats";

export const CONNECTIONS = 100;

export type BaselineKind = "ceiling" | "upstream" | "proxy" | "grpc";

export interface Baseline {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

/** A baseline server (dataplane/baselineServers.ts `kind`) on a free port, once it printed "ready". */
export async function startBaseline(kind: BaselineKind, env: Record<string, string>): Promise<Baseline> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", "scripts/bench/dataplane/baselineServers.ts", kind],
    {
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench: ${kind} server did not start`)), 30_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`bench: ${kind} server exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export interface Load {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Requests cycled through instead of one fixed request (autocannon `requests`). */
  requests?: autocannon.Request[];
}

/** The run's result, and its p50/p99 to the µs (../httpLatency.ts: the same responses autocannon's whole-ms histogram counts). */
export async function load(l: Load, seconds: number): Promise<{ result: autocannon.Result; latency: LatencySamples }> {
  const latency = new LatencySamples();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(
      {
        url: l.url,
        method: l.method ?? "GET",
        headers: l.headers,
        body: l.body,
        ...(l.requests ? { requests: l.requests } : {}),
        connections: CONNECTIONS,
        duration: seconds,
      },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
    run.on("response", (_client, statusCode, _bytes, ms) => latency.record(statusCode, ms));
  });
  return { result, latency };
}

export function reportRow(ctx: BenchContext, row: RunRow, rssPeak?: number): void {
  ctx.rows.push(row);
  console.log(
    `  ${row.subject.padEnd(10)} ${row.case.padEnd(28)} c=${row.concurrency}  ${String(row.opsPerSec).padStart(7)} req/s  p50 ${row.p50Ms} ms  p99 ${row.p99Ms} ms  CPU ${row.nodeCpuUsPerOp} µs/op${rssPeak === undefined ? "" : `  RSS ${rssPeak} MB`}${row.errors ? `  ERRORS/non-2xx ${row.errors}` : ""}`,
  );
}

/**
 * Warm-up, then the measured window, with the CPU time the server process (`pid`) and Redis spent
 * in it per request; for Sluice (`sluice`), its RSS sampled every 500 ms too.
 */
export async function measureServer(
  ctx: BenchContext,
  subject: string,
  name: string,
  l: Load,
  note: string,
  server: { pid: number; sluice?: boolean },
): Promise<RunRow> {
  await load(l, Math.max(2, ctx.settings.warmupMs / 1000));
  const [cpu0, redis0] = [processCpuUs(server.pid), await redisCpuSeconds(ctx.admin)];
  const [{ result, latency }, peak] = await withRssPeak(server.sluice ? server.pid : undefined, () =>
    load(l, ctx.settings.durationMs / 1000),
  );
  const [cpu1, redis1] = [processCpuUs(server.pid), await redisCpuSeconds(ctx.admin)];
  const row = httpLoadRow(subject, name, CONNECTIONS, result, note, latency.summary());
  const requests = Math.max(1, result.requests.total);
  row.nodeCpuUsPerOp = round((cpu1 - cpu0) / requests, 1);
  row.redisCpuUsPerOp = round(((redis1 - redis0) * 1e6) / requests, 1);
  if (server.sluice) row.rssPeakMb = peak;
  reportRow(ctx, row, server.sluice ? peak : undefined);
  return row;
}

/** The bare node:http + Redis ceiling (baselineServers.ts `ceiling`) started, measured as row `ceiling-node-redis`, stopped. */
export async function measureCeiling(ctx: BenchContext, subject: string): Promise<RunRow> {
  const ceiling = await startBaseline("ceiling", { REDIS_URL: ctx.url, BENCH_PREFIX: `${ctx.prefix}ceiling:` });
  try {
    return await measureServer(
      ctx,
      subject,
      "ceiling-node-redis",
      { url: ceiling.url },
      "bare node:http + the same Redis call (decide.lua, 1 token_bucket rule) per request",
      { pid: ceiling.pid },
    );
  } finally {
    await ceiling.stop();
  }
}
