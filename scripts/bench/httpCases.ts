/**
 * The HTTP path end to end: `GET /api/v1/echo` on the production server (scripts/server.mjs) with
 * one generous token_bucket rule (nothing refused), against the same route with enforcement off
 * (SLUICE_ENFORCEMENT=off: the key is still authenticated, no rule is checked), 100 connections,
 * autocannon as the load generator in this process. The two servers run one after the other (two
 * cores: never both at once). Needs a production build (`npm run build`); builds one if missing.
 * Uses the local Postgres database `sluice_bench` (created and migrated here) and this run's Redis
 * prefix; the tenant it creates is deleted afterwards.
 * Rows: subject "sluice-http", cases "echo-protected" and "echo-unprotected". The CPU columns are
 * not measured for these rows (NaN): the server is another process.
 */
import autocannon from "autocannon";
import { startSluice, type SluiceServer } from "../../test/support/sluiceServer";
import type { BenchContext } from "./context";
import { describeCounts, difference, failModeCounts } from "./failModeCounts";
import { createBenchKey, deleteBenchTenant, prepareServers, serverEnv, type BenchKey } from "./httpSetup";
import { httpLoadRow } from "./httpLoadRow";
import type { RunRow } from "./types";

const CONNECTIONS = 100;

async function load(url: string, key: string, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration: seconds, headers: { authorization: `Bearer ${key}` } });
}

async function measureServer(
  ctx: BenchContext,
  server: SluiceServer,
  key: string,
  name: string,
  note: string,
): Promise<RunRow> {
  const url = `${server.url}/api/v1/echo`;
  await load(url, key, Math.max(2, ctx.settings.warmupMs / 1000)); // JIT, connections, caches
  const before = await failModeCounts(server);
  const result = await load(url, key, ctx.settings.durationMs / 1000);
  const failModes = difference(await failModeCounts(server), before);
  const row: RunRow = {
    ...httpLoadRow("sluice-http", name, CONNECTIONS, result, note),
    failModeActivations: failModes.total,
  };
  ctx.rows.push(row);
  console.log(
    `  ${row.subject.padEnd(22)} ${row.case.padEnd(44)} c=${CONNECTIONS}  ${String(row.opsPerSec).padStart(8)} req/s  p50 ${row.p50Ms} ms  p99 ${row.p99Ms} ms  fail-mode activations ${describeCounts(failModes)}${row.errors ? `  ERRORS/non-2xx ${row.errors}` : ""}`,
  );
  return row;
}

export async function httpCases(ctx: BenchContext): Promise<void> {
  prepareServers();
  const env = serverEnv(ctx, "http");
  let benchKey: BenchKey | undefined;
  let server = await startSluice({ env });
  try {
    benchKey = await createBenchKey(server, "http");
    await measureServer(
      ctx,
      server,
      benchKey.key,
      "echo-protected",
      "one token_bucket rule (1e9 per 60 s), enforcement on",
    );
    await server.stop();
    server = await startSluice({ env: { ...env, SLUICE_ENFORCEMENT: "off" } });
    await measureServer(
      ctx,
      server,
      benchKey.key,
      "echo-unprotected",
      "same key and route, SLUICE_ENFORCEMENT=off (authenticated, no rule checked)",
    );
  } finally {
    await server.stop();
    await deleteBenchTenant(benchKey);
  }
}
