/**
 * `npm run demo`: from a fresh clone (after `npm ci`): generate the Prisma client, migrate the
 * database, seed the demo tenants (one rule per algorithm), keys and operators
 * (lib/control/demo/seedDemo.ts), build, start the production server, and drive demo traffic
 * (lib/control/demo/demoTraffic.ts) so the dashboard moves. Prints the dashboard URL, the operator logins,
 * a demo API key and the admin token. Ctrl-C stops everything it started.
 * The server trusts one proxy hop (SLUICE_TRUST_PROXY=1) because the traffic driver plays the
 * load balancer that gives each demo client its own address.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { DEMO_BEHAVIOURS, formatTally, startDemoTraffic } from "../lib/control/demo/demoTraffic";

const port = Number(process.env.PORT || 3000);
const base = `http://127.0.0.1:${port}`;
const adminToken = process.env.SLUICE_ADMIN_TOKEN || `demo-${randomBytes(24).toString("base64url")}`;
const children: ChildProcess[] = [];
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", SLUICE_ADMIN_TOKEN: adminToken, SLUICE_TRUST_PROXY: "1" };

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

async function main(): Promise<void> {
  step("prisma generate", "npx", ["prisma", "generate"]);
  step("migrate the database", "npm", ["run", "db:migrate"]);
  console.log("\n▶ seed the demo tenants, rules, keys and operators");
  const { seedDemo } = await import("../lib/control/demo/seedDemo");
  const { closeDb } = await import("../lib/db/client");
  const seeded = await seedDemo();
  await closeDb();
  step("build", "npm", ["run", "build"]);
  console.log(`\n▶ start the server on port ${port}`);
  const server = spawn(process.execPath, ["scripts/server.mjs"], {
    stdio: "inherit",
    env: { ...env, NODE_ENV: "production", PORT: String(port), HOSTNAME: "127.0.0.1" },
  });
  children.push(server);
  server.on("exit", (code) => shutdown(code ?? 1));
  process.on("SIGINT", () => shutdown(0));
  process.on("SIGTERM", () => shutdown(0));
  await waitForServer(60_000);

  const demoKey = seeded.tenants[0]!.keys.steady!;
  const [admin, viewer] = seeded.operators;
  console.log(`
Sluice is running.
  Dashboard:     ${base}/
  Admin login:   ${admin!.email} / ${admin!.password}
  Viewer login:  ${viewer!.email} / ${viewer!.password}
  Demo API key:  ${demoKey}
  Admin API:     Authorization: Bearer ${adminToken}
  Try:           curl -i ${base}/api/v1/echo -H "Authorization: Bearer ${demoKey}"
Driving demo traffic (${DEMO_BEHAVIOURS.map((b) => b.client).join(", ")}). Ctrl-C stops.
`);
  const byName = new Map(seeded.tenants.map((t) => [t.name, t.keys]));
  const traffic = startDemoTraffic({ baseUrl: base, keyOf: (tenant, client) => byName.get(tenant)![client]! });
  setInterval(() => console.log(`${formatTally(traffic.tally)}\n`), 10_000);
}

main().catch((error) => {
  console.error("demo:", (error as Error).message);
  shutdown(1);
});
