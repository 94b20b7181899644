/**
 * The process's Prisma client, created on first use from `config().databaseUrl`.
 *
 * - One client (and one pg pool) per process; kept on globalThis so Next dev hot reloads reuse it.
 * - Creating it does not connect: the first query does, and fails if Postgres is unreachable.
 * - Server only (`server-only`): scripts run under `--conditions=react-server`, tests alias it away.
 */
import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { config } from "../config/config";
import { PrismaClient } from "./generated/client";

const globalForDb = globalThis as unknown as { sluiceDb?: PrismaClient };

export function getDb(): PrismaClient {
  if (!globalForDb.sluiceDb) {
    const adapter = new PrismaPg({
      connectionString: config().databaseUrl,
      // Fail a connection attempt instead of queueing behind an unreachable server forever.
      connectionTimeoutMillis: 5_000,
    });
    globalForDb.sluiceDb = new PrismaClient({ adapter });
  }
  return globalForDb.sluiceDb;
}

/** Closes the client (scripts and tests); the next `getDb()` creates a fresh one. */
export async function closeDb(): Promise<void> {
  const db = globalForDb.sluiceDb;
  globalForDb.sluiceDb = undefined;
  await db?.$disconnect();
}
