/**
 * Prisma CLI configuration: migrations run through the bundled WASM schema engine and the pg
 * driver adapter, so no native engine binary is needed (none can be downloaded here).
 */
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

// The CLI still probes for native engines unless these point at something that exists.
process.env.PRISMA_QUERY_ENGINE_LIBRARY ??= "/bin/false";
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/bin/false";
// No update check over the network (`npm ci` runs `prisma generate` as the postinstall script).
process.env.CHECKPOINT_DISABLE ??= "1";
// The schema's `url = env("DATABASE_URL")` must resolve even for `prisma generate`.
process.env.DATABASE_URL ||= "postgresql://postgres@127.0.0.1:5432/sluice";
const connectionString = process.env.DATABASE_URL;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  // idleTimeoutMillis: a short idle timeout lets the CLI exit instead of hanging on the pool.
  adapter: async () => new PrismaPg({ connectionString, idleTimeoutMillis: 500 }),
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
