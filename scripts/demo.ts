/**
 * `npm run demo`: from a fresh clone (after `npm ci`): generate the Prisma client, migrate the
 * database, seed a demo tenant (one rule per algorithm) and keys, build, start the production
 * server, and drive demo traffic: a steady client well within its limits, a bursty one, and an
 * abusive one that is mostly refused. Prints the URL, the admin token and a demo API key.
 * Ctrl-C stops everything it started.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";

const port = Number(process.env.PORT || 3000);
const base = `http://127.0.0.1:${port}`;
const adminToken = process.env.SLUICE_ADMIN_TOKEN || `demo-${randomBytes(12).toString("base64url")}`;
const children: ChildProcess[] = [];
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", SLUICE_ADMIN_TOKEN: adminToken };

function step(label: string, command: string, args: string[]): void {
  console.log(`\n▶ ${label}`);
  const result = spawnSync(command, args, { stdio: "inherit", env });
  if (result.status !== 0) {
    console.error(`demo: "${label}" failed (exit ${result.status})`);
    process.exit(1);
  }
}

async function waitForServer(timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(`${base}/api/health`);
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`server did not answer at ${base}`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  }
}

function shutdown(code: number): never {
  for (const child of children) child.kill("SIGTERM");
  process.exit(code);
}

/** Demo traffic: returns a tally of status codes per client, printed every few seconds. */
function driveTraffic(keys: Record<string, string>): Map<string, Map<number, number>> {
  const tally = new Map<string, Map<number, number>>();
  const hit = async (client: string, method = "GET", path = "/api/v1/echo/items") => {
    const counts = tally.get(client) ?? new Map<number, number>();
    tally.set(client, counts);
    try {
      const res = await fetch(base + path, { method, headers: { authorization: `Bearer ${keys[client]}` } });
      await res.arrayBuffer();
      counts.set(res.status, (counts.get(res.status) ?? 0) + 1);
    } catch {
      counts.set(0, (counts.get(0) ?? 0) + 1);
    }
  };
  setInterval(() => void hit("steady"), 1000); // 1 request/s: well within every limit
  setInterval(() => {
    for (let i = 0; i < 25; i++) void hit("bursty"); // 25 at once every 5 s: the token bucket bites
  }, 5000);
  setInterval(() => {
    for (let i = 0; i < 4; i++) void hit("abusive", i === 0 ? "POST" : "GET");
  }, 200); // 20 requests/s: mostly refused
  return tally;
}

async function main(): Promise<void> {
  step("prisma generate", "npx", ["prisma", "generate"]);
  step("migrate the database", "npm", ["run", "db:migrate"]);
  console.log("\n▶ seed the demo tenant, rules and keys");
  const { seedDemo } = await import("../lib/demo/seedDemo");
  const { closeDb } = await import("../lib/db/client");
  const seeded = await seedDemo();
  await closeDb();
  step("build", "npm", ["run", "build"]);
  console.log(`\n▶ start the server on port ${port}`);
  const server = spawn(process.execPath, ["scripts/server.mjs"], { stdio: "inherit", env: { ...env, NODE_ENV: "production", PORT: String(port), HOSTNAME: "127.0.0.1" } });
  children.push(server);
  server.on("exit", (code) => shutdown(code ?? 1));
  process.on("SIGINT", () => shutdown(0));
  process.on("SIGTERM", () => shutdown(0));
  await waitForServer(60_000);

  console.log(`
Sluice is running.
  Dashboard:    ${base}/
  Admin API:    Authorization: Bearer ${adminToken}
  Demo API key: ${seeded.keys.steady}
  Try:          curl -i ${base}/api/v1/echo -H "Authorization: Bearer ${seeded.keys.steady}"
Driving demo traffic (steady, bursty, abusive clients). Ctrl-C stops.
`);
  const tally = driveTraffic(seeded.keys);
  setInterval(() => {
    const line = [...tally].map(([client, counts]) => `${client}: ${[...counts].map(([s, n]) => `${s}×${n}`).join(" ")}`);
    console.log(line.join("  |  "));
  }, 5000);
}

main().catch((error) => {
  console.error("demo:", (error as Error).message);
  shutdown(1);
});
