/**
 * A database of its own for a test file that needs a known state of a whole table (e.g. "no
 * operator exists yet", "this is the only admin"), on the local test server (TEST_DATABASE_URL's
 * host, loopback only: see sluiceEnv.ts).
 *
 * `createThrowawayDatabase(label)` creates `sluice_tmp_<label>_<random>` and applies every
 * migration with `npm run db:migrate`; `drop()` removes exactly that database (disconnecting any
 * client left on it). Nothing else on the server is touched.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { TEST_DATABASE_URL } from "./sluiceEnv";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface ThrowawayDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function onMaintenanceDb<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString(), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

function migrate(databaseUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(
      "npm",
      ["run", "db:migrate"],
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, CHECKPOINT_DISABLE: "1" }, timeout: 120_000 },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(
              `npm run db:migrate failed for ${databaseUrl}: ${error.message}\n${stdout}\n${stderr}`.slice(-4_000),
            ),
          );
        else resolve();
      },
    );
  });
}

export async function createThrowawayDatabase(label: string): Promise<ThrowawayDatabase> {
  const name = `sluice_tmp_${label.replace(/[^a-z0-9]/g, "")}_${randomBytes(4).toString("hex")}`;
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  await onMaintenanceDb((client) => client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`));
  const drop = () =>
    onMaintenanceDb((client) =>
      client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`),
    ).then(() => undefined);
  try {
    await migrate(url.toString());
  } catch (error) {
    await drop();
    throw error;
  }
  return { url: url.toString(), name, drop };
}
