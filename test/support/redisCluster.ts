/**
 * A throwaway Redis Cluster for tests, on 127.0.0.1 only.
 *
 * `startRedisCluster({ masters, replicasPerMaster? })` starts masters × (1 + replicas) redis-server
 * nodes (each with its own temp dir, free client port and free cluster bus port via --cluster-port,
 * cluster-node-timeout 2000), joins them with `redis-cli --cluster create`, and resolves once every
 * node reports cluster_state:ok with all 16384 slots served, knows every node and sees the expected
 * numbers of masters and replicas, and every replica's link to its master is up (30 s, else it stops
 * everything and rejects). Node `role` comes from each node's own view at that point.
 * Queries (`masterPorts`, `slotOwnerPort`) ask any node still running. `killMaster` SIGKILLs a
 * current master; with replicas, `waitForFailover(port)` resolves once a replica has taken over all of
 * its slots and the running nodes report cluster_state:ok. `stop()` stops every node and removes their
 * dirs (idempotent). `role` is fixed at creation; `masterPorts()` gives the current masters.
 * With `tls` (test/support/redisTls.ts) every node also listens on a TLS port, the cluster bus and
 * replication speak TLS, and the nodes announce their TLS ports (`tls-cluster yes`): `tlsUrl` lists
 * them as rediss://; the plain ports stay for the harness's own probes.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Redis } from "ioredis";
import { freePorts } from "./freePort";
import { RedisStartError, startRedisServer, withRedis, type RedisServerHandle } from "./redisServer";
import { tlsServerArgs, type RedisTlsFiles } from "./redisTls";

const HOST = "127.0.0.1";
const SLOTS = 16384;
const READY_TIMEOUT_MS = 30_000;
const NODE_TIMEOUT_MS = 2000;
const REDIS_CLI_BIN = process.env.REDIS_CLI_BIN || "redis-cli";
const PORT_ATTEMPTS = 5;
const run = promisify(execFile);

export interface ClusterNode extends RedisServerHandle {
  readonly busPort: number;
  readonly role: "master" | "replica";
}

export interface RedisClusterHandle {
  nodes: ClusterNode[];
  startupNodes: { host: string; port: number }[];
  /** "redis://127.0.0.1:p1,redis://127.0.0.1:p2,..." */
  url: string;
  /** With `tls`: "rediss://127.0.0.1:t1,..." (the nodes' TLS ports); else undefined. */
  tlsUrl?: string;
  masterPorts(): Promise<number[]>;
  slotOwnerPort(key: string): Promise<number>;
  killMaster(port: number): Promise<void>;
  waitForState(ok: boolean, timeoutMs: number): Promise<void>;
  waitForFailover(oldMasterPort: number, timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

interface NodeLine {
  port: number;
  flags: string[];
  slots: string[];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `CLUSTER NODES` lines: id addr flags master ping pong epoch link slot... */
function parseNodes(text: string): NodeLine[] {
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [, addr = "", flags = "", , , , , , ...slots] = line.trim().split(" ");
      return { port: Number(/:(\d+)@/.exec(addr)?.[1] ?? NaN), flags: flags.split(","), slots };
    });
}

function parseInfo(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const line of text.split("\r\n")) {
    const at = line.indexOf(":");
    if (at > 0) fields.set(line.slice(0, at), line.slice(at + 1));
  }
  return fields;
}

const isLiveMaster = (n: NodeLine) => n.flags.includes("master") && !n.flags.some((f) => f === "fail" || f === "fail?");

/** `CLUSTER SLOTS` as [start, end, ownerPort] ranges. */
async function slotRanges(redis: Redis): Promise<[number, number, number][]> {
  const reply = await redis.call("CLUSTER", "SLOTS");
  if (!Array.isArray(reply)) throw new Error("CLUSTER SLOTS: unexpected reply");
  return reply.map((entry: unknown): [number, number, number] => {
    if (!Array.isArray(entry) || !Array.isArray(entry[2])) throw new Error("CLUSTER SLOTS: unexpected entry");
    return [Number(entry[0]), Number(entry[1]), Number(entry[2][1])];
  });
}

const coversAllSlots = (ranges: [number, number, number][]) =>
  ranges.reduce((sum, [start, end]) => sum + end - start + 1, 0) === SLOTS;

async function waitUntil(what: string, timeoutMs: number, check: () => Promise<string | null>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  for (;;) {
    const problem = await check().catch((error: unknown) => String(error));
    if (problem === null) return;
    last = problem;
    if (Date.now() > deadline)
      throw new Error(`Redis Cluster: ${what} not reached within ${timeoutMs} ms; last: ${last}`);
    await sleep(100);
  }
}

async function startNode(
  port: number,
  busPort: number,
  tls?: { files: RedisTlsFiles; port: number },
): Promise<{ server: RedisServerHandle; busPort: number }> {
  const args = ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"];
  if (tls) args.push(...tlsServerArgs(tls.files, tls.port), "--tls-cluster", "yes", "--tls-replication", "yes");
  // Replicas sync at once instead of after the default 5 s diskless-sync delay.
  args.push("--cluster-node-timeout", String(NODE_TIMEOUT_MS), "--repl-diskless-sync-delay", "0");
  for (let attempt = 1; ; attempt++) {
    try {
      const server = await startRedisServer({ port, args: [...args, "--cluster-port", String(busPort)] });
      return { server, busPort };
    } catch (error) {
      if (!(error instanceof RedisStartError && error.addressInUse) || attempt >= PORT_ATTEMPTS) throw error;
      [port = 0, busPort = 0] = await freePorts(2);
    }
  }
}

export async function startRedisCluster(opts: {
  masters: number;
  replicasPerMaster?: number;
  tls?: RedisTlsFiles;
}): Promise<RedisClusterHandle> {
  const replicas = opts.replicasPerMaster ?? 0;
  if (!Number.isInteger(opts.masters) || opts.masters < 3)
    throw new Error("startRedisCluster: redis-cli needs at least 3 masters");
  const total = opts.masters * (1 + replicas);
  const ports = await freePorts(3 * total);
  const tlsPorts = ports.slice(2 * total);
  const settled = await Promise.allSettled(
    Array.from({ length: total }, (_, i) =>
      startNode(ports[2 * i]!, ports[2 * i + 1]!, opts.tls ? { files: opts.tls, port: tlsPorts[i]! } : undefined),
    ),
  );
  const started = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const servers = started.map((s) => s.server);
  const stopAll = () => Promise.all(servers.map((s) => s.stop())).then(() => {});
  const failed = settled.find((s) => s.status === "rejected");
  if (failed) {
    await stopAll();
    throw failed.reason;
  }

  const running = () => servers.filter((s) => !s.isStopped());
  const onAnyNode = async <T>(fn: (redis: Redis) => Promise<T>): Promise<T> => {
    let lastError: unknown = new Error("Redis Cluster: no node is running");
    for (const server of running()) {
      try {
        return await withRedis(server.port, fn);
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  };
  const clusterInfo = (port: number) =>
    withRedis(port, async (r) => parseInfo(String(await r.call("CLUSTER", "INFO"))));
  /** null when every running node reports `state` (and, for "ok", serves all slots); else why not. */
  const stateProblem = async (
    state: "ok" | "fail",
    extra?: (port: number, info: Map<string, string>) => Promise<string | null>,
  ) => {
    if (running().length === 0) return "no node is running";
    for (const server of running()) {
      const info = await clusterInfo(server.port);
      if (info.get("cluster_state") !== state) return `${server.port}: cluster_state:${info.get("cluster_state")}`;
      if (state === "ok" && info.get("cluster_slots_ok") !== String(SLOTS))
        return `${server.port}: cluster_slots_ok:${info.get("cluster_slots_ok")}`;
      const problem = (await extra?.(server.port, info)) ?? null;
      if (problem !== null) return problem;
    }
    return null;
  };

  let roles: Map<number, "master" | "replica">;
  try {
    const addresses = servers.map((s) => `${HOST}:${s.port}`);
    const cliArgs = ["--cluster", "create", ...addresses, "--cluster-replicas", String(replicas), "--cluster-yes"];
    await run(REDIS_CLI_BIN, cliArgs, { timeout: 20_000 }).catch(
      (error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(
          `redis-cli --cluster create failed: ${error.message}\n${error.stdout ?? ""}${error.stderr ?? ""}`,
        );
      },
    );
    roles = new Map();
    const expected = `${opts.masters} masters with slots, ${opts.masters * replicas} replicas`;
    await waitUntil("cluster_state:ok and one view of the roles on every node", READY_TIMEOUT_MS, () =>
      stateProblem("ok", async (port, info) => {
        if (info.get("cluster_known_nodes") !== String(total))
          return `${port}: cluster_known_nodes:${info.get("cluster_known_nodes")}`;
        const view = parseNodes(String(await withRedis(port, (r) => r.call("CLUSTER", "NODES"))));
        const masters = view.filter((n) => n.flags.includes("master") && n.slots.length > 0).length;
        const slaves = view.filter((n) => n.flags.includes("slave")).length;
        if (`${masters} masters with slots, ${slaves} replicas` !== expected)
          return `${port} sees ${masters} masters, ${slaves} replicas`;
        const myself = view.find((n) => n.flags.includes("myself"));
        roles.set(port, myself?.flags.includes("slave") ? "replica" : "master");
        const replication = parseInfo(await withRedis(port, (r) => r.info("replication")));
        if (replication.get("role") === "slave" && replication.get("master_link_status") !== "up")
          return `${port}: master link down`;
        return null;
      }),
    );
  } catch (error) {
    await stopAll();
    throw error;
  }

  const nodes: ClusterNode[] = started.map(({ server, busPort }) => ({
    ...server,
    busPort,
    role: roles.get(server.port) ?? "replica",
  }));
  const masterPorts = async () => {
    const view = parseNodes(String(await onAnyNode((r) => r.call("CLUSTER", "NODES"))));
    return view
      .filter(isLiveMaster)
      .map((n) => n.port)
      .sort((a, b) => a - b);
  };
  let stopping: Promise<void> | null = null;

  return {
    nodes,
    startupNodes: servers.map((s) => ({ host: HOST, port: s.port })),
    url: servers.map((s) => s.url).join(","),
    ...(opts.tls ? { tlsUrl: tlsPorts.map((p) => `rediss://${HOST}:${p}`).join(",") } : {}),
    masterPorts,
    slotOwnerPort: (key) =>
      onAnyNode(async (r) => {
        const slot = Number(await r.call("CLUSTER", "KEYSLOT", key));
        const owner = (await slotRanges(r)).find(([start, end]) => start <= slot && slot <= end);
        if (!owner) throw new Error(`Redis Cluster: slot ${slot} (key ${key}) has no owner`);
        return owner[2];
      }),
    killMaster: async (port) => {
      const node = nodes.find((n) => n.port === port);
      if (!node || !(await masterPorts()).includes(port))
        throw new Error(`Redis Cluster: ${port} is not a current master`);
      await node.kill();
    },
    waitForState: (ok, timeoutMs) =>
      waitUntil(`cluster_state:${ok ? "ok" : "fail"}`, timeoutMs, () => stateProblem(ok ? "ok" : "fail")),
    waitForFailover: (oldMasterPort, timeoutMs) =>
      waitUntil(`failover of ${oldMasterPort}`, timeoutMs, () =>
        stateProblem("ok", async (port) => {
          if (port === oldMasterPort) return null;
          const ranges = await withRedis(port, slotRanges);
          if (!coversAllSlots(ranges)) return `${port}: CLUSTER SLOTS does not cover every slot`;
          if (ranges.some(([, , owner]) => owner === oldMasterPort))
            return `${port}: ${oldMasterPort} still owns slots`;
          return null;
        }),
      ),
    stop: () => (stopping ??= stopAll()),
  };
}
