/**
 * `npm run demo`: from a fresh clone (after `npm ci`): migrate the database, build, start the
 * production server, and show the limiter core deciding live (one demo rule per algorithm,
 * 5 requests per 10 s, a client sending 2 requests a second). Ctrl-C stops everything it started.
 *
 * The dashboard, operator login and API keys arrive with the dashboard and rules issues; until
 * then this prints the server URL and the live decisions.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createLimiter } from "../lib/limiter/decide";
import { RefusalCache } from "../lib/limiter/refusalCache";
import { ALGORITHMS } from "../lib/limiter/types";
import { createRedisClient } from "../lib/redis/connect";
import { config } from "../lib/config";
import { toLimiterRule, ruleSchema } from "../lib/rules/ruleSchema";

const port = Number(process.env.PORT || 3000);
const children: ChildProcess[] = [];

function step(label: string, command: string, args: string[]): void {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) {
    console.error(`demo: "${label}" failed (exit ${result.status})`);
    process.exit(1);
  }
}

async function waitForHealth(url: string, timeoutMs: number): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      return { status: res.status, body: await res.json() };
    } catch {
      if (Date.now() > deadline) throw new Error(`server did not answer at ${url}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
}

function shutdown(code: number): never {
  for (const child of children) child.kill("SIGTERM");
  process.exit(code);
}

async function main(): Promise<void> {
  step("prisma generate", "npx", ["prisma", "generate"]);
  step("migrate the database", "npm", ["run", "db:migrate"]);
  step("build", "npm", ["run", "build"]);
  console.log(`\n▶ start the server on port ${port}`);
  const server = spawn("npx", ["next", "start", "-p", String(port), "-H", "127.0.0.1"], { stdio: "inherit" });
  children.push(server);
  server.on("exit", (code) => shutdown(code ?? 1));
  process.on("SIGINT", () => shutdown(0));
  process.on("SIGTERM", () => shutdown(0));
  const health = await waitForHealth(`http://127.0.0.1:${port}/api/health`, 60_000);

  console.log(`\nSluice is running: http://127.0.0.1:${port}  (health: ${JSON.stringify(health)})`);
  console.log("Live decisions of the demo rules (5 per 10 s each), a client sending 2 requests/s. Ctrl-C stops.\n");

  const c = config();
  const redis = createRedisClient({ url: c.redisUrl, cluster: c.redisCluster, timeoutMs: c.redisTimeoutMs, autoPipelining: false });
  const limiter = createLimiter({ redis, prefix: `${c.redisPrefix}demo:`, timeoutMs: c.redisTimeoutMs, refusals: new RefusalCache() });
  const rules = ALGORITHMS.map((algorithm) =>
    toLimiterRule(ruleSchema.parse({ name: algorithm.replace("_", "-"), algorithm, limit: 5, windowMs: 10_000, burst: 5 })),
  );
  setInterval(async () => {
    const line = await Promise.all(
      rules.map(async (rule) => {
        const d = await limiter.decide([rule], { tenantId: "demo", keyId: "demo-client" });
        const r = d.results[0]!;
        return `${rule.name.padEnd(14)} ${d.allowed ? "allow" : "429  "} r=${String(r.remaining).padStart(2)}`;
      }),
    );
    console.log(line.join(" | "));
  }, 500);
}

main().catch((error) => {
  console.error("demo:", (error as Error).message);
  shutdown(1);
});
