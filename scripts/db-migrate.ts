/**
 * `npm run db:migrate`: creates the database named by DATABASE_URL when it is missing, then
 * applies every migration with `prisma migrate deploy`. Exits non-zero, with the reason, on failure.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import pg from "pg";

const DEFAULT_URL = "postgresql://postgres@127.0.0.1:5432/sluice";

function targetOf(databaseUrl: string): { name: string; maintenanceUrl: string } {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!name) throw new Error(`DATABASE_URL names no database: ${url.origin}`);
  url.pathname = "/postgres";
  return { name, maintenanceUrl: url.toString() };
}

async function ensureDatabase(databaseUrl: string): Promise<void> {
  const { name, maintenanceUrl } = targetOf(databaseUrl);
  const client = new pg.Client({ connectionString: maintenanceUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount) return;
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    console.log(`db:migrate: created database "${name}"`);
  } catch (error) {
    // Another process may have created it between the check and the CREATE.
    if ((error as { code?: string }).code !== "42P04") throw error;
  } finally {
    await client.end();
  }
}

function migrateDeploy(databaseUrl: string): number {
  const prismaCli = createRequire(import.meta.url).resolve("prisma/build/index.js");
  const result = spawnSync(process.execPath, [prismaCli, "migrate", "deploy"], {
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: "1" },
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function withoutPassword(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "(unparsable DATABASE_URL)";
  }
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_URL;
  const shown = withoutPassword(databaseUrl);
  try {
    await ensureDatabase(databaseUrl);
  } catch (error) {
    console.error(`db:migrate: cannot create or reach the database of ${shown}: ${(error as Error).message}`);
    process.exit(1);
  }
  const status = migrateDeploy(databaseUrl);
  if (status !== 0) {
    console.error(`db:migrate: prisma migrate deploy failed (exit ${status}) for ${shown}`);
    process.exit(status);
  }
}

await main();
