/**
 * What the parts that load real servers share (httpCases.ts, sustainedCases.ts): a production
 * build (built once if missing), the bench database migrated, the servers' environment (this run's
 * Redis prefix, the bench database, a known admin token), and one tenant with one API key and one
 * token_bucket rule far above anything the load reaches (1e9 per 60 s), deleted afterwards by SQL.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { adminClient, deleteTenants } from "../../test/support/adminClient";
import type { SluiceServer } from "../../test/support/sluiceServer";
import { BENCH_DATABASE_URL, type BenchContext } from "./context";
import { BENCH_METRICS_TOKEN } from "./failModeCounts";

export const ADMIN_TOKEN = "bench-admin-token-not-a-secret-0001";

function run(label: string, command: string, args: string[], env: Record<string, string> = {}): void {
  const result = spawnSync(command, args, {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...env },
  });
  if (result.status !== 0) throw new Error(`bench: ${label} failed (exit ${result.status})`);
}

/** Builds once if there is no production build, and migrates the bench database. */
export function prepareServers(): void {
  if (!existsSync(".next/BUILD_ID")) run("npm run build", "npm", ["run", "build"]);
  run("db:migrate", "npm", ["run", "db:migrate"], { DATABASE_URL: BENCH_DATABASE_URL });
}

/** The environment of a bench server; `label` keeps each part's Redis keys apart. */
export function serverEnv(
  ctx: BenchContext,
  label: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: BENCH_DATABASE_URL,
    SLUICE_ADMIN_TOKEN: ADMIN_TOKEN,
    SLUICE_METRICS_TOKEN: BENCH_METRICS_TOKEN,
    SLUICE_REDIS_PREFIX: `${ctx.prefix}${label}:`,
    REDIS_URL: ctx.url,
    ...extra,
  };
}

export interface BenchKey {
  tenantId: string;
  key: string;
}

/** Creates the tenant, its key and its generous rule through `server`'s admin API. */
export async function createBenchKey(server: SluiceServer, label: string): Promise<BenchKey> {
  const admin = adminClient(server.url, ADMIN_TOKEN);
  const tenant = await admin.createTenant(`bench-${label}-${process.pid}`);
  const { key } = await admin.createKey(tenant.id, "bench");
  await admin.putTenantRules(tenant.id, [
    { name: "per-key", algorithm: "token_bucket", limit: 1_000_000_000, windowMs: 60_000 },
  ]);
  return { tenantId: tenant.id, key };
}

export async function deleteBenchTenant(key: BenchKey | undefined): Promise<void> {
  if (key) await deleteTenants(BENCH_DATABASE_URL, [key.tenantId]);
}
