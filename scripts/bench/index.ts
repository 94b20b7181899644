/**
 * `npm run bench`: Sluice's limiter against rate-limiter-flexible on the local Redis (REDIS_URL,
 * default redis://127.0.0.1:6379), the HTTP path, accuracy on a seeded trace and sustained load on
 * two servers (BENCH_DATABASE_URL, default the local `sluice_bench`). Env: BENCH_SECONDS (measured
 * window per case, default 3), BENCH_WARMUP_SECONDS (default 0.5), BENCH_ONLY or `-- --only` (comma-separated
 * parts: limiter, simulator, http, dataplane, identity, grpc, memory, accuracy, sustained, burst, access, usage), BENCH_ACCURACY_SLICE, BENCH_SUSTAINED_SECONDS.
 * Writes reports/bench.json (a partial run merges into it) and docs/benchmarks.md, and prints the tables.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { onlyFromArgs, partsFromEnv, runBench } from "./run";

export { runBench, DEFAULT_PARTS, PARTS, type BenchPart, type PartName, type RunOptions } from "./run";
export { runCase, type BenchContext, type CaseSpec } from "./context";

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);

if (isMain) {
  runBench(partsFromEnv(onlyFromArgs(process.argv.slice(2)) ?? process.env.BENCH_ONLY)).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
