/**
 * The usage bench's data set (usageCases.ts), made by Postgres itself in a throwaway database:
 * - `throwawayUsageDatabase()` creates a fresh database (BENCH_USAGE_DATABASE_URL, default the
 *   bench database's name plus `_usage`), migrates it, and answers its client and a `drop()` that
 *   drops it. Only a database whose name contains `bench` is ever created or dropped here.
 * - `generateMonth` writes `keys` keys of one tenant, each active `hours` distinct hours of the
 *   31 x 24 hours before `endHour` (key k's hours spread by k, so every hour of the month has keys),
 *   each active hour a request row (rule `*`) and a rule row (rule `1`), as the minute roll-up
 *   would have written them: INSERT ... SELECT generate_series, GENERATE_BATCH keys a statement.
 * - `keyId(i)` is key i's id, as the generator spells it.
 */
import { spawnSync } from "node:child_process";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../lib/db/generated/client";
import { BENCH_DATABASE_URL } from "./context";

export const MONTH_HOURS = 31 * 24;
export const RULE_REF = "1";
const GENERATE_BATCH = 50_000;
export const HOURS_ENV = "BENCH_USAGE_HOURS";

export const keyId = (i: number) => `K${String(i).padStart(7, "0")}`;

const client = (url: string) => new PrismaClient({ adapter: new PrismaPg({ connectionString: url }) });

function usageDatabaseUrl(): URL {
  if (process.env.BENCH_USAGE_DATABASE_URL) return new URL(process.env.BENCH_USAGE_DATABASE_URL);
  const url = new URL(BENCH_DATABASE_URL);
  url.pathname = `${url.pathname}_usage`;
  return url;
}

export async function throwawayUsageDatabase(): Promise<{ db: PrismaClient; drop: () => Promise<void> }> {
  const url = usageDatabaseUrl();
  const name = url.pathname.slice(1);
  if (!/^[a-z0-9_]*bench[a-z0-9_]*$/.test(name))
    throw new Error(`usage bench: the throwaway database's name must contain "bench" (got ${name})`);
  const maintenance = new URL(url);
  maintenance.pathname = "/postgres";
  const admin = client(maintenance.toString());
  const recreate = async (create: boolean) => {
    await admin.$executeRawUnsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    if (create) await admin.$executeRawUnsafe(`CREATE DATABASE "${name}"`);
  };
  await recreate(true);
  const migrated = spawnSync("npm", ["run", "db:migrate"], {
    env: { ...process.env, DATABASE_URL: url.toString() },
    stdio: "ignore",
  });
  if (migrated.status !== 0) throw new Error(`usage bench: db:migrate failed on ${name}`);
  const db = client(url.toString());
  return {
    db,
    drop: async () => {
      await db.$disconnect();
      await recreate(false);
      await admin.$disconnect();
    },
  };
}

/** Writes the month's hour rows; answers the requests they count. */
export async function generateMonth(
  db: PrismaClient,
  tenantId: string,
  keys: number,
  hours: number,
  endHour: number,
): Promise<number> {
  const startHour = endHour - MONTH_HOURS;
  for (let first = 0; first < keys; first += GENERATE_BATCH) {
    const last = Math.min(keys, first + GENERATE_BATCH) - 1;
    await db.$executeRawUnsafe(
      `INSERT INTO "UsageHour" ("tenantId", "hour", "caller", "rule", "tier", "admitted", "refused", "units")
       SELECT $1, to_timestamp(($2::bigint + (k * 7 + h * 97) % ${MONTH_HOURS}) * 3600) AT TIME ZONE 'UTC',
              'K' || lpad(k::text, 7, '0'), rule, '',
              n - (n % 10 = 0)::int, (n % 10 = 0)::int, n - (n % 10 = 0)::int
         FROM generate_series($3::int, $4::int) AS k,
              generate_series(0, $5::int - 1) AS h,
              LATERAL (SELECT 1 + (k * 31 + h * 17) % 100 AS n) AS c,
              (VALUES ('*'), ('${RULE_REF}')) AS r(rule)`,
      tenantId,
      startHour,
      first,
      last,
      hours,
    );
  }
  const [row] = await db.$queryRawUnsafe<{ requests: bigint }[]>(
    `SELECT SUM("admitted" + "refused") AS requests FROM "UsageHour" WHERE "tenantId" = $1 AND "rule" = '*'`,
    tenantId,
  );
  return Number(row?.requests ?? 0);
}

/** Rows and bytes (table, TOAST and indexes) of a table. */
export async function tableSize(db: PrismaClient, table: string): Promise<{ rows: number; bytes: number }> {
  await db.$executeRawUnsafe(`VACUUM ANALYZE "${table}"`);
  const [row] = await db.$queryRawUnsafe<{ rows: bigint; bytes: bigint }[]>(
    `SELECT (SELECT COUNT(*) FROM "${table}") AS rows, pg_total_relation_size('"${table}"') AS bytes`,
  );
  return { rows: Number(row?.rows ?? 0), bytes: Number(row?.bytes ?? 0) };
}
