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
 *   the p99 the gateway adds: an open-loop load (dataplane/fixedRate.ts; autocannon's fixed-rate
 *   mode loads in bursts and weights its tail, see there), latencies in fractions of a ms; the two
 *   rows' windows alternate, 3 each, and each row keeps the medians (a neighbour's burst on the
 *   shared machine then spoils one window, not a whole row).
 * The Sluice server's RSS (VmRSS of its process) is sampled during the loads; its peak is in the
 * rows (`rssPeakMb`). The whole sequence runs in rounds (run.ts, rounds.ts), each row the median
 * of its rounds. Needs a production build (built once if missing) and the bench database.
 */
import { adminClient } from "../../test/support/adminClient";
import { startSluice, type SluiceServer } from "../../test/support/sluiceServer";
import type { BenchContext } from "./context";
import { ADMIN_TOKEN, createBenchKey, deleteBenchTenant, prepareServers, serverEnv, type BenchKey } from "./httpSetup";
import { alternatedFixedRate, type FixedRateResult } from "./dataplane/fixedRate";
import { withRssPeak } from "./dataplane/processStats";
import {
  CONNECTIONS,
  measureCeiling,
  measureServer,
  reportRow,
  startBaseline,
  type Load,
} from "./dataplane/serverLoad";
import type { RunRow } from "./types";

/** Windows per half-load row, alternated with the other row's. */
const HALF_LOAD_ROUNDS = 3;
const SUBJECT = "dataplane";

/** A half-load row (dataplane/fixedRate.ts), in the columns httpLoadRow fills. */
function fixedRateRow(r: FixedRateResult, name: string, note: string): RunRow {
  return {
    subject: SUBJECT,
    case: name,
    concurrency: CONNECTIONS,
    opsPerSec: r.rps,
    p50Ms: r.p50Ms,
    p99Ms: r.p99Ms,
    refusedPct: 0,
    errors: r.errors,
    nodeCpuUsPerOp: Number.NaN,
    redisCpuUsPerOp: Number.NaN,
    otherCpuPct: Number.NaN,
    note,
  };
}

/** dataplane/serverLoad.ts `measureServer`, as a row of this part. */
function measure(
  ctx: BenchContext,
  name: string,
  l: Load,
  note: string,
  server: { pid: number; sluice?: boolean },
): Promise<RunRow> {
  return measureServer(ctx, SUBJECT, name, l, note, server);
}

/**
 * The bare proxy and the gateway at the same fixed rate, open loop, their windows alternated
 * (HALF_LOAD_ROUNDS each; dataplane/fixedRate.ts `alternatedFixedRate`): medians of p50 and p99.
 */
async function halfLoad(ctx: BenchContext, rate: number, proxy: Load, gateway: Load, pid: number): Promise<void> {
  const seconds = ctx.settings.durationMs / 1000;
  const loads = [proxy, gateway].map((l) => ({
    url: l.url,
    headers: l.headers,
    rate,
    seconds,
    connections: CONNECTIONS,
  }));
  const [[p, g], peak] = await withRssPeak(pid, () =>
    alternatedFixedRate(loads, HALF_LOAD_ROUNDS, Math.max(2, ctx.settings.warmupMs / 1000)),
  );
  const note = `fixed ${rate} req/s (half the gateway's maximum), open loop, median of ${HALF_LOAD_ROUNDS} alternated windows`;
  reportRow(ctx, fixedRateRow(p!, "bare-proxy-half-load", note));
  reportRow(ctx, { ...fixedRateRow(g!, "sluice-gateway-half-load", note), rssPeakMb: peak }, peak);
}

export async function dataplaneCases(ctx: BenchContext): Promise<void> {
  prepareServers();
  const upstream = await startBaseline("upstream", {});
  let benchKey: BenchKey | undefined;
  let sluice: SluiceServer | undefined;
  try {
    await measureCeiling(ctx, SUBJECT);

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
      { pid, sluice: true },
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
      { pid, sluice: true },
    );
    await measure(
      ctx,
      "sluice-authorize",
      {
        url: `${sluice.url}/api/v1/authorize`,
        headers: { ...auth, "x-forwarded-method": "GET", "x-forwarded-uri": "/orders/1?x=1" },
      },
      "GET /api/v1/authorize (forward auth), 1 token_bucket rule",
      { pid, sluice: true },
    );

    const proxy = await startBaseline("proxy", { UPSTREAM_URL: upstream.url });
    try {
      await measure(
        ctx,
        "bare-proxy",
        { url: `${proxy.url}/orders/1` },
        "bare node:http reverse proxy (keep-alive agent) to a local upstream",
        { pid: proxy.pid },
      );
      const gateway = await measure(
        ctx,
        "sluice-gateway",
        { url: `${sluice.url}/api/v1/orders/1`, headers: auth },
        "GET /api/v1/orders/1 through Sluice's gateway to the same upstream, 1 rule",
        { pid, sluice: true },
      );
      const rate = Math.max(100, Math.round(gateway.opsPerSec / 2));
      await halfLoad(
        ctx,
        rate,
        { url: `${proxy.url}/orders/1` },
        { url: `${sluice.url}/api/v1/orders/1`, headers: auth },
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
