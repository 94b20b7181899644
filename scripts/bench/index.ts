/**
 * `npm run bench`: Sluice's limiter against rate-limiter-flexible on the local Redis (REDIS_URL,
 * default redis://127.0.0.1:6379). Env: BENCH_SECONDS (measured window per case, default 3),
 * BENCH_WARMUP_SECONDS (default 0.5), BENCH_ONLY=http, memory, limiter or simulator (only that part). Writes
 * reports/bench.json and prints the tables.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { partsFromEnv, runBench } from "./run";

export { runBench, DEFAULT_PARTS, type BenchPart, type RunOptions } from "./run";
export { runCase, type BenchContext, type CaseSpec } from "./context";

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);

if (isMain) {
  runBench(partsFromEnv()).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
