/**
 * Real reverse proxies in front of Sluice for forward-auth tests, run from the configs Sluice ships
 * (deploy/caddy/Caddyfile, deploy/nginx/sluice.conf) with only the addresses substituted:
 * `startCaddy` / `startNginx({ sluicePort, apiPort })` start Debian's `caddy` / `nginx` on a free
 * 127.0.0.1 port (own temp directory for config, state and logs) and resolve once the port
 * accepts connections; `stop()` ends the process (SIGTERM, SIGKILL after 3 s) and removes the
 * directory. `startCountingApi()` is the API behind them: it answers every request 200 with the
 * method, URL, the X-Sluice-* and credential headers and the body size it received, and counts the
 * requests that reached it.
 * Processes still running when this process exits are killed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, isPortListening } from "./freePort";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const READY_TIMEOUT_MS = 15_000;
const running = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of running) child.kill("SIGKILL");
});

export interface FrontProxy {
  readonly url: string;
  log(): string;
  stop(): Promise<void>;
}

export interface Addresses {
  sluicePort: number;
  apiPort: number;
}

/** The shipped config with Sluice, the API and the listening address replaced. */
export function shippedConfig(file: string, a: Addresses & { listen: [string, string] }): string {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  for (const needle of ["127.0.0.1:3000", "127.0.0.1:9000", a.listen[0]]) {
    if (!text.includes(needle)) throw new Error(`${file} no longer contains ${needle}: update frontProxies.ts`);
  }
  return text
    .replaceAll("127.0.0.1:3000", `127.0.0.1:${a.sluicePort}`)
    .replaceAll("127.0.0.1:9000", `127.0.0.1:${a.apiPort}`)
    .replace(a.listen[0], a.listen[1]);
}

async function launch(
  name: string,
  command: string,
  args: string[],
  port: number,
  dir: string,
  env: Record<string, string> = {},
): Promise<FrontProxy> {
  let output = "";
  const child = spawn(command, args, { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  child.once("exit", () => running.delete(child));
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-50_000);
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await isPortListening(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not start on port ${port}:\n${output.slice(-4_000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url: `http://127.0.0.1:${port}`, log: () => output, stop };
}

export async function startCaddy(a: Addresses): Promise<FrontProxy> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), "sluice-caddy-"));
  // The shipped global options already turn off the admin endpoint and automatic HTTPS.
  const config = shippedConfig("deploy/caddy/Caddyfile", {
    ...a,
    // Any host, as the shipped `:8080` (a tenant's host reaches it too), bound to the loopback only.
    listen: [":8080 {", `http://:${port} {\n\tbind 127.0.0.1`],
  });
  const file = path.join(dir, "Caddyfile");
  await writeFile(file, config);
  return launch("caddy", "caddy", ["run", "--config", file, "--adapter", "caddyfile"], port, dir, {
    HOME: dir,
    XDG_DATA_HOME: dir,
    XDG_CONFIG_HOME: dir,
  });
}

export async function startNginx(a: Addresses): Promise<FrontProxy> {
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), "sluice-nginx-"));
  await writeFile(
    path.join(dir, "sluice.conf"),
    shippedConfig("deploy/nginx/sluice.conf", { ...a, listen: ["listen 8080;", `listen 127.0.0.1:${port};`] }),
  );
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((t) => `  ${t}_temp_path ${dir}/${t};`)
    .join("\n");
  const conf = `daemon off;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log stderr warn;\nevents { worker_connections 256; }\nhttp {\n  access_log off;\n${temp}\n  include ${dir}/sluice.conf;\n}\n`;
  await writeFile(path.join(dir, "nginx.conf"), conf);
  return launch("nginx", "nginx", ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", "stderr"], port, dir);
}

export interface CountingApi {
  readonly port: number;
  /** Requests that reached the API so far. */
  count(): number;
  stop(): Promise<void>;
}

export async function startCountingApi(): Promise<CountingApi> {
  let count = 0;
  const server = http.createServer((req, res) => {
    count++;
    let bodyBytes = 0;
    req.on("data", (chunk: Buffer) => (bodyBytes += chunk.length));
    req.on("end", () => {
      const seen = {
        method: req.method,
        url: req.url,
        tenant: req.headers["x-sluice-tenant"] ?? null,
        key: req.headers["x-sluice-key"] ?? null,
        forwardedFor: req.headers["x-forwarded-for"] ?? null,
        authorization: req.headers.authorization ?? null,
        apiKey: req.headers["x-api-key"] ?? null,
        bodyBytes,
      };
      res.writeHead(200, { "content-type": "application/json", "x-from": "protected-api" });
      res.end(JSON.stringify(seen));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    count: () => count,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
