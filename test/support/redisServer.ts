/**
 * Throwaway redis-server processes for tests, on 127.0.0.1 only (never the shared 6379).
 *
 * `startRedisServer({ port?, args? })` spawns `redis-server` (no persistence, own temp --dir) on the
 * given or a free port and resolves once *that* process answers PING (checked by INFO process_id, so
 * a foreign server on the port never counts); it rejects within 10 s with the server's log tail.
 * The handle: `stop()` SIGTERM, SIGKILL after 3 s, waits for exit, removes the temp dir (idempotent;
 * `restart()` after it uses a fresh dir); `kill()` SIGKILL and wait, keeping the dir (a crash: a
 * cluster node restarted after it keeps its nodes.conf); `restart()` starts again on the same port;
 * `pause(ms)` sends CLIENT PAUSE ms ALL from a separate connection and resolves once it is in effect.
 * `config` (optional) is written to redis.conf in the temp dir and passed as the config file (a
 * sentinel needs one it can rewrite; a restart keeps the rewritten file).
 * Lifecycle calls on one handle run one after another. Children still running when this process
 * exits (or gets SIGINT/SIGTERM/SIGHUP) are SIGKILLed and their temp dirs removed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { access, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { freePort } from "./freePort";

const HOST = "127.0.0.1";
const REDIS_SERVER_BIN = process.env.REDIS_SERVER_BIN || "redis-server";
const READY_TIMEOUT_MS = 10_000;
const STOP_GRACE_MS = 3_000;
const LOG_TAIL_CHARS = 4_000;
const PORT_ATTEMPTS = 5;
const SHARED_REDIS_PORT = 6379;

export interface RedisServerOptions {
  /** Fixed port; without it a free one is picked (and re-picked if it turns out to be taken). */
  port?: number;
  /** Extra redis-server arguments, e.g. ["--maxmemory", "10mb"]. */
  args?: string[];
  /** Contents of a config file, e.g. "sentinel monitor mymaster 127.0.0.1 7000 1" (with args ["--sentinel"]). */
  config?: string;
}

export interface RedisServerHandle {
  readonly port: number;
  readonly host: string;
  /** redis://127.0.0.1:port */
  readonly url: string;
  stop(): Promise<void>;
  kill(): Promise<void>;
  restart(): Promise<void>;
  pause(ms: number): Promise<void>;
  /** True when no process of this handle is running (never started, stopped, killed or crashed). */
  isStopped(): boolean;
  /** The tail of what the current (or last) process wrote to stdout/stderr. */
  logs(): string;
}

/** Startup failure; `addressInUse` when the port (or cluster bus port) was already taken. */
export class RedisStartError extends Error {
  constructor(
    message: string,
    readonly addressInUse: boolean,
  ) {
    super(message);
    this.name = "RedisStartError";
  }
}

interface Proc {
  child: ChildProcess;
  exited: Promise<void>;
  logs(): string;
}

const running = new Set<ChildProcess>();
const tempDirs = new Set<string>();
let exitHooksInstalled = false;

function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  const killAll = () => {
    for (const child of running) child.kill("SIGKILL");
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  };
  process.on("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      killAll();
      // Keep the default behaviour (terminate) unless someone else handles the signal.
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    });
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function isAlive(proc: Proc): boolean {
  return running.has(proc.child);
}

function spawnRedis(port: number, dir: string, extraArgs: string[], configFile: string | null): Proc {
  const args = [
    ...(configFile ? [configFile] : []),
    "--port",
    String(port),
    "--bind",
    HOST,
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    dir,
  ];
  args.push("--daemonize", "no", "--protected-mode", "no", ...extraArgs);
  const child = spawn(REDIS_SERVER_BIN, args, { stdio: ["ignore", "pipe", "pipe"] });
  let tail = "";
  const append = (text: string) => {
    tail = (tail + text).slice(-LOG_TAIL_CHARS);
  };
  child.stdout?.on("data", (chunk: Buffer) => append(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => append(chunk.toString()));
  running.add(child);
  const exited = new Promise<void>((resolve) => {
    const done = (note: string) => {
      running.delete(child);
      append(note);
      resolve();
    };
    child.once("exit", (code, signal) => done(`[exited: code ${code}, signal ${signal}]\n`));
    child.once("error", (error) => done(`[spawn ${REDIS_SERVER_BIN} failed: ${error.message}]\n`));
  });
  // A forgotten server must not keep the test process alive; the exit hook kills it.
  child.unref();
  return { child, exited, logs: () => tail };
}

/** Runs `fn` on a short-lived, non-retrying connection to 127.0.0.1:port. */
export async function withRedis<T>(port: number, fn: (redis: Redis) => Promise<T>, timeoutMs = 1000): Promise<T> {
  const redis = new Redis({
    host: HOST,
    port,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on("error", () => {}); // failures surface as rejected commands
  try {
    await redis.connect();
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

/** The pid of the redis-server answering PING on the port, or null if none answers. */
async function answeringPid(port: number): Promise<number | null> {
  try {
    return await withRedis(
      port,
      async (redis) => {
        if ((await redis.ping()) !== "PONG") return null;
        const match = /process_id:(\d+)/.exec(await redis.info("server"));
        return match ? Number(match[1]) : null;
      },
      500,
    );
  } catch {
    return null;
  }
}

async function waitUntilReady(proc: Proc, port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (!isAlive(proc)) {
      const logs = proc.logs();
      throw new RedisStartError(
        `redis-server on ${HOST}:${port} exited before answering PING. Log tail:\n${logs}`,
        /already in use/i.test(logs),
      );
    }
    if ((await answeringPid(port)) === proc.child.pid) return;
    if (Date.now() > deadline) {
      throw new RedisStartError(
        `redis-server on ${HOST}:${port} did not answer PING within ${READY_TIMEOUT_MS} ms. Log tail:\n${proc.logs()}`,
        false,
      );
    }
    await sleep(50);
  }
}

/** SIGTERM, then SIGKILL after `graceMs` (at once when graceMs is 0: a crash); waits for exit. */
async function terminate(proc: Proc, graceMs: number): Promise<void> {
  if (!isAlive(proc)) return;
  if (graceMs > 0) {
    proc.child.kill("SIGTERM");
    await Promise.race([proc.exited, sleep(graceMs)]);
  }
  if (isAlive(proc)) proc.child.kill("SIGKILL");
  await proc.exited;
}

async function createHandle(port: number, args: string[], config: string | undefined): Promise<RedisServerHandle> {
  let dir: string | null = null;
  let proc: Proc | null = null;
  let lastLogs = "";
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(op: () => Promise<T>): Promise<T> => {
    const result = queue.then(op);
    queue = result.catch(() => {});
    return result;
  };

  const removeDir = async () => {
    const doomed = dir;
    dir = null;
    if (!doomed) return;
    await rm(doomed, { recursive: true, force: true });
    tempDirs.delete(doomed);
  };
  const halt = async (graceMs: number) => {
    const current = proc;
    proc = null;
    if (!current) return;
    await terminate(current, graceMs);
    lastLogs = current.logs();
  };
  const start = async () => {
    if (dir === null) {
      dir = await mkdtemp(path.join(tmpdir(), `sluice-redis-${port}-`));
      tempDirs.add(dir);
    }
    let configFile: string | null = null;
    if (config !== undefined) {
      configFile = path.join(dir, "redis.conf");
      if (
        !(await access(configFile).then(
          () => true,
          () => false,
        ))
      )
        await writeFile(configFile, config);
    }
    const started = spawnRedis(port, dir, args, configFile);
    proc = started;
    try {
      await waitUntilReady(started, port);
    } catch (error) {
      await halt(0);
      await removeDir();
      throw error;
    }
  };

  const handle: RedisServerHandle = {
    port,
    host: HOST,
    url: `redis://${HOST}:${port}`,
    stop: () =>
      serial(async () => {
        await halt(STOP_GRACE_MS);
        await removeDir();
      }),
    kill: () => serial(() => halt(0)),
    restart: () =>
      serial(async () => {
        await halt(STOP_GRACE_MS);
        await start();
      }),
    pause: (ms) =>
      withRedis(port, async (redis) => {
        await redis.call("CLIENT", "PAUSE", String(ms), "ALL");
      }),
    isStopped: () => proc === null || !isAlive(proc),
    logs: () => proc?.logs() ?? lastLogs,
  };
  await serial(start);
  return handle;
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServerHandle> {
  if (options.port === SHARED_REDIS_PORT)
    throw new Error(`startRedisServer: port ${SHARED_REDIS_PORT} belongs to the shared Redis`);
  installExitHooks();
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    try {
      return await createHandle(port, options.args ?? [], options.config);
    } catch (error) {
      const retry = options.port === undefined && error instanceof RedisStartError && error.addressInUse;
      if (!retry || attempt >= PORT_ATTEMPTS) throw error;
    }
  }
}
