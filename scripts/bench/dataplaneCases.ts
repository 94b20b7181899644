/**
 * The data plane (issue 14), one run, one Sluice instance, 100 connections, autocannon in this
 * process, every server in its own process, one after another (two cores: never two loads at once):
 * - `ceiling-node-redis`: a bare node:http server making the same Redis call per request
 *   (dataplane/baselineServers.ts `ceiling`): the data plane's ceiling;
 * - `sluice-echo` (GET /api/v1/echo), `sluice-check` (POST /api/v1/check, an identifier rule),
 *   `sluice-authorize` (GET /api/v1/authorize with X-Forwarded-Method/-Uri): one generous
 *   token_bucket rule on the key (1e9 per 60 s), as the ceiling;
 * - `bare-proxy`: a bare Node reverse proxy to a local upstream (the gateway's ceiling), and
 *   `sluice-gateway`: GET /api/v1/orders/1 through Sluice to the same upstream;
 * - `*-half-load`: bare proxy and gateway at a fixed rate, half the gateway's measured req/s, for
 *   the p99 the gateway adds.
 * The Sluice server's RSS (VmRSS of its process) is sampled during the loads; its peak is in the
 * rows' notes. Needs a production build (built once if missing) and the bench database.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { adminClient } from "../../test/support/adminClient";
import { freePort } from "../../test/support/freePort";
import { startSluice, type SluiceServer } from "../../test/support/sluiceServer";
import type { BenchContext } from "./context";
import { ADMIN_TOKEN, createBenchKey, deleteBenchTenant, prepareServers, serverEnv, type BenchKey } from "./httpSetup";
import { httpLoadRow } from "./httpLoadRow";
import { round } from "./measure";
import type { RunRow } from "./types";

const CONNECTIONS = 100;
const SUBJECT = "dataplane";

interface Baseline {
  url: string;
  stop(): Promise<void>;
}

async function startBaseline(kind: "ceiling" | "upstream" | "proxy", env: Record<string, string>): Promise<Baseline> {
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
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? round(Number(match[1]) / 1024, 1) : Number.NaN;
}

interface Load {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Requests per second over all connections; unset: as fast as possible. */
  overallRate?: number;
}

async function load(l: Load, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: l.url,
    method: l.method ?? "GET",
    headers: l.headers,
    body: l.body,
    connections: CONNECTIONS,
    duration: seconds,
    ...(l.overallRate ? { overallRate: l.overallRate } : {}),
  });
}

/** Warm-up, then the measured window; `rssOf` samples that process every 500 ms. */
async function measure(ctx: BenchContext, name: string, l: Load, note: string, rssOf?: number): Promise<RunRow> {
  await load(l, Math.max(2, ctx.settings.warmupMs / 1000));
  let peak = 0;
  const sampler = rssOf === undefined ? undefined : setInterval(() => (peak = Math.max(peak, rssMb(rssOf))), 500);
  const result = await load(l, ctx.settings.durationMs / 1000);
  if (sampler) clearInterval(sampler);
  const row: RunRow = {
    ...httpLoadRow(
      SUBJECT,
      name,
      CONNECTIONS,
      result,
      rssOf === undefined ? note : `${note}; Sluice RSS peak ${peak} MB`,
    ),
  };
  ctx.rows.push(row);
  console.log(
    `  ${row.subject.padEnd(10)} ${row.case.padEnd(28)} c=${CONNECTIONS}  ${String(row.opsPerSec).padStart(7)} req/s  p50 ${row.p50Ms} ms  p99 ${row.p99Ms} ms${rssOf === undefined ? "" : `  RSS ${peak} MB`}${row.errors ? `  ERRORS/non-2xx ${row.errors}` : ""}`,
  );
  return row;
}

export async function dataplaneCases(ctx: BenchContext): Promise<void> {
  prepareServers();
  const upstream = await startBaseline("upstream", {});
  let benchKey: BenchKey | undefined;
  let sluice: SluiceServer | undefined;
  try {
    const ceiling = await startBaseline("ceiling", { REDIS_URL: ctx.url, BENCH_PREFIX: `${ctx.prefix}ceiling:` });
    try {
      await measure(
        ctx,
        "ceiling-node-redis",
        { url: ceiling.url },
        "bare node:http + the same Redis call (decide.lua, 1 token_bucket rule) per request",
      );
    } finally {
      await ceiling.stop();
    }

    sluice = await startSluice({ env: serverEnv(ctx, "dataplane") });
    benchKey = await createBenchKey(sluice, "dataplane");
    const admin = adminClient(sluice.url, ADMIN_TOKEN);
    await admin.putTenantRules(benchKey.tenantId, [
      { name: "per-key", algorithm: "token_bucket", limit: 1_000_000_000, windowMs: 60_000 },
      { name: "per-user", scope: "identifier", algorithm: "token_bucket", limit: 1_000_000_000, windowMs: 60_000 },
    ]);
    const put = await admin.request("PUT", `/api/admin/tenants/${benchKey.tenantId}/upstream`, { url: upstream.url });
    if (put.status !== 200) throw new Error(`bench: PUT upstream answered ${put.status}`);
    const auth = { authorization: `Bearer ${benchKey.key}` };
    const pid = sluice.pid;
    await measure(
      ctx,
      "sluice-echo",
      { url: `${sluice.url}/api/v1/echo`, headers: auth },
      "GET /api/v1/echo, 1 token_bucket rule",
      pid,
    );
    await measure(
      ctx,
      "sluice-check",
      {
        url: `${sluice.url}/api/v1/check`,
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ identifier: "user-1", rule: "per-user" }),
      },
      "POST /api/v1/check (identifier rule), key rule too",
      pid,
    );
    await measure(
      ctx,
      "sluice-authorize",
      {
        url: `${sluice.url}/api/v1/authorize`,
        headers: { ...auth, "x-forwarded-method": "GET", "x-forwarded-uri": "/orders/1?x=1" },
      },
      "GET /api/v1/authorize (forward auth), 1 token_bucket rule",
      pid,
    );

    const proxy = await startBaseline("proxy", { UPSTREAM_URL: upstream.url });
    try {
      await measure(
        ctx,
        "bare-proxy",
        { url: `${proxy.url}/orders/1` },
        "bare node:http reverse proxy (keep-alive agent) to a local upstream",
      );
      const gateway = await measure(
        ctx,
        "sluice-gateway",
        { url: `${sluice.url}/api/v1/orders/1`, headers: auth },
        "GET /api/v1/orders/1 through Sluice's gateway to the same upstream, 1 rule",
        pid,
      );
      const rate = Math.max(100, Math.round(gateway.opsPerSec / 2));
      await measure(
        ctx,
        "bare-proxy-half-load",
        { url: `${proxy.url}/orders/1`, overallRate: rate },
        `fixed ${rate} req/s (half the gateway's maximum)`,
      );
      await measure(
        ctx,
        "sluice-gateway-half-load",
        { url: `${sluice.url}/api/v1/orders/1`, headers: auth, overallRate: rate },
        `fixed ${rate} req/s (half the gateway's maximum)`,
        pid,
      );
    } finally {
      await proxy.stop();
    }
  } finally {
    await sluice?.stop();
    await upstream.stop();
    await deleteBenchTenant(benchKey);
  }
}
