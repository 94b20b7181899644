/**
 * Sluice server processes for HTTP tests and benchmarks: `startSluice({ env })` runs the production
 * server (`node scripts/server.mjs`, which needs a prior `npm run build`) on a free 127.0.0.1 port
 * and resolves once GET /api/health answers (any status: Redis or Postgres may be down on purpose).
 * Rejects within 60 s with the server's log tail. `stop()` sends SIGTERM (SIGKILL after 5 s) and
 * waits; `kill()` SIGKILLs (a crashed instance). Servers still running when this process exits are
 * killed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./freePort";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const READY_TIMEOUT_MS = 60_000;
const LOG_TAIL_CHARS = 4_000;
const running = new Set<ChildProcess>();

process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export interface SluiceServer {
  readonly url: string;
  readonly port: number;
  /** The server's process id (its RSS is the server's: scripts/server.mjs runs Next in-process). */
  readonly pid: number;
  /** Everything the server printed so far. */
  log(): string;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

export interface SluiceServerOptions {
  /** Extra environment (DATABASE_URL, REDIS_URL, SLUICE_* ...), over this process's. */
  env?: Record<string, string>;
  port?: number;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

export async function startSluice(options: SluiceServerOptions = {}): Promise<SluiceServer> {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID")))
    throw new Error("startSluice: no production build; run `npm run build` first");
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  let output = "";
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/server.mjs")], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`startSluice: server exited (${child.exitCode}):\n${output.slice(-LOG_TAIL_CHARS)}`);
    try {
      await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(
          `startSluice: not answering on ${url} after ${READY_TIMEOUT_MS} ms:\n${output.slice(-LOG_TAIL_CHARS)}`,
        );
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  return {
    url,
    port,
    pid: child.pid!,
    log: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited(child);
      clearTimeout(timer);
    },
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
  };
}
