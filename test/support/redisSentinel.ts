/**
 * A throwaway Redis Sentinel set for tests, on 127.0.0.1 only: one master, one replica and one
 * sentinel (quorum 1, the master judged down after 1 s), each a redis-server from
 * test/support/redisServer.ts on a free port.
 *
 * `startRedisSentinel({ name? })` resolves once the replica's link to the master is up and the
 * sentinel sees both (else stops everything and rejects within 30 s). `masterPort()` asks the
 * sentinel which node is the master now. `killMaster()` SIGKILLs the current master;
 * `waitForFailover(oldPort, timeoutMs)` resolves once the sentinel names another master and that
 * node says role:master. `stop()` stops every process and removes their dirs (idempotent).
 * With `tls` (test/support/redisTls.ts) every process also listens on a TLS port, replication and
 * the sentinel's own connections to the nodes speak TLS, and the sentinel names the nodes by their
 * TLS ports; `tlsSentinels` are the sentinel's TLS address (ports in `masterPort()` and
 * `killMaster()` are then TLS ports); the plain ports stay for the harness's own probes.
 */
import type { Redis } from "ioredis";
import { freePorts } from "./freePort";
import { startRedisServer, withRedis, type RedisServerHandle } from "./redisServer";
import { tlsServerArgs, type RedisTlsFiles } from "./redisTls";

const HOST = "127.0.0.1";
const READY_TIMEOUT_MS = 30_000;
const DOWN_AFTER_MS = 1000;

export interface RedisSentinelHandle {
  name: string;
  sentinel: RedisServerHandle;
  sentinels: { host: string; port: number }[];
  /** With `tls`: the sentinel's TLS address. */
  tlsSentinels?: { host: string; port: number }[];
  masterPort(): Promise<number>;
  killMaster(): Promise<number>;
  waitForFailover(oldMasterPort: number, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function waitUntil(what: string, timeoutMs: number, check: () => Promise<string | null>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const problem = await check().catch((error: unknown) => String(error));
    if (problem === null) return;
    if (Date.now() > deadline)
      throw new Error(`Redis Sentinel: ${what} not reached within ${timeoutMs} ms; last: ${problem}`);
    await sleep(100);
  }
}

/** A SENTINEL reply entry (flat [field, value, ...]) as a map. */
function fields(entry: unknown): Map<string, string> {
  const flat = Array.isArray(entry) ? entry.map(String) : [];
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < flat.length; i += 2) map.set(flat[i]!, flat[i + 1]!);
  return map;
}

const role = (port: number) =>
  withRedis(port, async (r: Redis) => /role:(\w+)/.exec(await r.info("replication"))?.[1] ?? "unknown");

export async function startRedisSentinel(
  opts: { name?: string; tls?: RedisTlsFiles } = {},
): Promise<RedisSentinelHandle> {
  const name = opts.name ?? "mymaster";
  const servers: RedisServerHandle[] = [];
  const stopAll = () => Promise.all(servers.map((s) => s.stop())).then(() => {});
  // The port each process is named by (its TLS port with `tls`), and the arguments that add it.
  const tlsPorts = opts.tls ? await freePorts(3) : [];
  const announced = new Map<RedisServerHandle, number>();
  const tlsArgs = (i: number) =>
    opts.tls ? [...tlsServerArgs(opts.tls, tlsPorts[i]!), "--tls-replication", "yes"] : [];
  const started = (server: RedisServerHandle, i: number) => {
    servers.push(server);
    announced.set(server, opts.tls ? tlsPorts[i]! : server.port);
    return server;
  };
  try {
    const master = started(await startRedisServer({ args: ["--repl-diskless-sync-delay", "0", ...tlsArgs(0)] }), 0);
    const replica = await startRedisServer({
      args: ["--replicaof", HOST, String(announced.get(master)), "--repl-diskless-sync-delay", "0", ...tlsArgs(1)],
    });
    started(replica, 1);
    await waitUntil("replica link up", READY_TIMEOUT_MS, async () =>
      /master_link_status:up/.test(await withRedis(replica.port, (r) => r.info("replication")))
        ? null
        : "replica link down",
    );
    const config = [
      `sentinel monitor ${name} ${HOST} ${announced.get(master)} 1`,
      `sentinel down-after-milliseconds ${name} ${DOWN_AFTER_MS}`,
      `sentinel failover-timeout ${name} 10000`,
      "",
    ].join("\n");
    const sentinel = started(await startRedisServer({ config, args: ["--sentinel", ...tlsArgs(2)] }), 2);
    await waitUntil("sentinel sees the replica", READY_TIMEOUT_MS, async () => {
      const replicas = (await withRedis(sentinel.port, (r) => r.call("SENTINEL", "REPLICAS", name))) as unknown[];
      const ok = replicas
        .map(fields)
        .some((f) => f.get("port") === String(announced.get(replica)) && f.get("master-link-status") === "ok");
      return ok ? null : `replicas: ${JSON.stringify(replicas)}`;
    });
    const masterPort = async () => {
      const addr = (await withRedis(sentinel.port, (r) =>
        r.call("SENTINEL", "GET-MASTER-ADDR-BY-NAME", name),
      )) as string[];
      return Number(addr[1]);
    };
    let stopping: Promise<void> | null = null;
    return {
      name,
      sentinel,
      sentinels: [{ host: HOST, port: sentinel.port }],
      ...(opts.tls ? { tlsSentinels: [{ host: HOST, port: announced.get(sentinel)! }] } : {}),
      masterPort,
      killMaster: async () => {
        const port = await masterPort();
        const node = servers.find((s) => announced.get(s) === port);
        if (!node) throw new Error(`Redis Sentinel: master ${port} is not one of this set's nodes`);
        await node.kill();
        return port;
      },
      waitForFailover: (oldMasterPort, timeoutMs) =>
        waitUntil(`failover from ${oldMasterPort}`, timeoutMs, async () => {
          const port = await masterPort();
          if (port === oldMasterPort) return "the sentinel still names the old master";
          const node = servers.find((s) => announced.get(s) === port);
          return node && (await role(node.port)) === "master" ? null : `${port} is not master yet`;
        }),
      stop: () => (stopping ??= stopAll()),
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
