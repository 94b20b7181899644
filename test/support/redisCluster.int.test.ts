/**
 * The Redis Cluster test harness itself: a cluster ioredis can use, whose keys spread over masters,
 * that fails over to a replica when a master is killed, and that leaves no port open after stop().
 */
import { Cluster } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { isPortListening } from "./freePort";
import { startRedisCluster, type RedisClusterHandle } from "./redisCluster";

const started: RedisClusterHandle[] = [];
afterAll(async () => {
  await Promise.all(started.map((handle) => handle.stop()));
});

async function cluster(masters: number, replicasPerMaster = 0): Promise<RedisClusterHandle> {
  const handle = await startRedisCluster({ masters, replicasPerMaster });
  started.push(handle);
  return handle;
}

describe("startRedisCluster", () => {
  it("serves hash-tagged keys from several masters through ioredis Cluster, and closes every port on stop", async () => {
    const redisCluster = await cluster(3);
    expect(redisCluster.nodes).toHaveLength(3);
    expect(redisCluster.nodes.every((n) => n.role === "master")).toBe(true);
    expect(await redisCluster.masterPorts()).toEqual(redisCluster.nodes.map((n) => n.port).sort((a, b) => a - b));
    expect(redisCluster.url).toBe(redisCluster.nodes.map((n) => `redis://127.0.0.1:${n.port}`).join(","));

    const keys = ["{a}x", "{b}y", "{c}z"];
    const owners = new Set(await Promise.all(keys.map((key) => redisCluster.slotOwnerPort(key))));
    expect(owners.size).toBeGreaterThanOrEqual(2);

    const client = new Cluster(redisCluster.startupNodes);
    try {
      for (const key of keys) await client.set(key, `value of ${key}`);
      for (const key of keys) expect(await client.get(key)).toBe(`value of ${key}`);
    } finally {
      await client.quit();
    }

    await redisCluster.stop();
    await redisCluster.stop();
    const ports = redisCluster.nodes.flatMap((n) => [n.port, n.busPort]);
    expect(await Promise.all(ports.map((port) => isPortListening(port)))).toEqual(ports.map(() => false));
  });

  it("promotes a replica when its master is killed, and the killed master's keys stay writable", async () => {
    const redisCluster = await cluster(3, 1);
    expect(redisCluster.nodes.filter((n) => n.role === "replica")).toHaveLength(3);
    const victim = await redisCluster.slotOwnerPort("{a}x");

    await redisCluster.killMaster(victim);
    await redisCluster.waitForFailover(victim, 20_000);

    const masters = await redisCluster.masterPorts();
    expect(masters).toHaveLength(3);
    expect(masters).not.toContain(victim);
    const newOwner = await redisCluster.slotOwnerPort("{a}x");
    expect(redisCluster.nodes.find((n) => n.port === newOwner)?.role).toBe("replica");

    const client = new Cluster(redisCluster.startupNodes.filter((n) => n.port !== victim));
    try {
      await client.set("{a}x", "after failover");
      expect(await client.get("{a}x")).toBe("after failover");
    } finally {
      await client.quit();
    }
  });
});
