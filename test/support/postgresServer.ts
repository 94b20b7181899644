/**
 * A throwaway Postgres for tests, on 127.0.0.1 only (never the shared 5432).
 *
 * `startPostgresServer()` runs `initdb` (trust auth) into a fresh temp dir, `pg_ctl start` on a free
 * loopback port with its Unix socket in that dir, then `createdb` and `npm run db:migrate` with the
 * handle's `url`. It resolves once the schema is migrated, or rejects with the server's log tail.
 * The handle: `stop()` is `pg_ctl stop -m fast` (clients are disconnected: an outage), `start()`
 * starts it again on the same port with the same data, `cleanup()` stops it and removes the dir
 * (idempotent). Lifecycle calls on one handle run one after another. Servers still running when
 * this process exits (or gets SIGINT/SIGTERM/SIGHUP) get an immediate shutdown (SIGQUIT to the
 * postmaster) and their dirs are removed.
 *
 * Postgres refuses to run as root: when this process is root, the server runs as the `postgres`
 * system user (PG_TEST_OS_USER overrides), which then owns the temp dir.
 */
import { execFile } from "node:child_process";
import { chownSync, readFileSync, rmSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./freePort";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const PG_BIN = process.env.PG_BIN || "/usr/lib/postgresql/15/bin";
const HOST = "127.0.0.1";
const SHARED_PORT = 5432;
const DATABASE = "sluice";
const START_TIMEOUT_S = 30;
const PORT_ATTEMPTS = 5;
const LOG_TAIL_CHARS = 4_000;

export interface PostgresServerHandle {
  readonly port: number;
  /** postgresql://postgres@127.0.0.1:<port>/sluice */
  readonly url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  cleanup(): Promise<void>;
  isRunning(): boolean;
  /** The tail of the server log. */
  logs(): Promise<string>;
}

/** Postmaster pid per data dir, for the exit hook. */
const running = new Map<string, number>();
const tempDirs = new Set<string>();
let exitHooksInstalled = false;

function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  const killAll = () => {
    for (const pid of running.values()) {
      try {
        process.kill(pid, "SIGQUIT"); // immediate shutdown; the postmaster takes its backends down
      } catch {
        // already gone
      }
    }
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      killAll();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

/** uid/gid to run the server as: the `postgres` user when we are root, else ourselves. */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const name = process.env.PG_TEST_OS_USER || "postgres";
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`startPostgresServer: running as root and no system user "${name}" to run Postgres as`);
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

function run(
  command: string,
  args: string[],
  options: { asServer?: boolean; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<string> {
  const user = options.asServer ? serverUser() : null;
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.asServer ? "/" : ROOT,
        env: options.env ?? process.env,
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 10_000_000,
        ...(user ?? {}),
      },
      (error, stdout, stderr) => {
        if (error)
          reject(
            new Error(
              `${path.basename(command)} ${args.join(" ")} failed: ${error.message}\n${stdout}\n${stderr}`.slice(
                -LOG_TAIL_CHARS,
              ),
            ),
          );
        else resolve(stdout + stderr);
      },
    );
  });
}

async function createHandle(dir: string, port: number): Promise<PostgresServerHandle> {
  const data = path.join(dir, "data");
  const logFile = path.join(dir, "postgres.log");
  const url = `postgresql://postgres@${HOST}:${port}/${DATABASE}`;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const result = queue.then(op);
    queue = result.catch(() => {});
    return result;
  };
  const logs = async () => (await readFile(logFile, "utf8").catch(() => "")).slice(-LOG_TAIL_CHARS);
  const pgCtl = (args: string[]) => run(path.join(PG_BIN, "pg_ctl"), ["-D", data, ...args], { asServer: true });

  const start = async () => {
    if (running.has(data)) return;
    const options = `-k ${dir} -h ${HOST} -p ${port} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    try {
      await pgCtl(["start", "-w", "-t", String(START_TIMEOUT_S), "-l", logFile, "-o", options]);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nServer log:\n${await logs()}`);
    }
    const pid = Number((await readFile(path.join(data, "postmaster.pid"), "utf8")).split("\n")[0]);
    running.set(data, pid);
  };
  const stop = async () => {
    if (!running.has(data)) return;
    await pgCtl(["stop", "-w", "-m", "fast", "-t", String(START_TIMEOUT_S)]);
    running.delete(data);
  };

  await serial(start);
  return {
    port,
    url,
    stop: () => serial(stop),
    start: () => serial(start),
    cleanup: () =>
      serial(async () => {
        await stop();
        await rm(dir, { recursive: true, force: true });
        tempDirs.delete(dir);
      }),
    isRunning: () => running.has(data),
    logs,
  };
}

export async function startPostgresServer(): Promise<PostgresServerHandle> {
  installExitHooks();
  const dir = await mkdtemp(path.join(tmpdir(), "sluice-pg-"));
  tempDirs.add(dir);
  const user = serverUser();
  if (user) chownSync(dir, user.uid, user.gid);
  await run(
    path.join(PG_BIN, "initdb"),
    ["-D", path.join(dir, "data"), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
    { asServer: true },
  );

  let handle: PostgresServerHandle | null = null;
  for (let attempt = 1; handle === null; attempt++) {
    const port = await freePort();
    if (port === SHARED_PORT) continue;
    try {
      handle = await createHandle(dir, port);
    } catch (error) {
      // Another process may have taken the port between freePort() and the bind: try another.
      if (attempt >= PORT_ATTEMPTS || !/could not bind|already in use/i.test((error as Error).message)) {
        await rm(dir, { recursive: true, force: true });
        tempDirs.delete(dir);
        throw error;
      }
    }
  }
  try {
    await run(path.join(PG_BIN, "createdb"), ["-h", HOST, "-p", String(handle.port), "-U", "postgres", DATABASE]);
    await run("npm", ["run", "db:migrate"], {
      env: { ...process.env, DATABASE_URL: handle.url, CHECKPOINT_DISABLE: "1" },
    });
  } catch (error) {
    await handle.cleanup();
    throw error;
  }
  return handle;
}
