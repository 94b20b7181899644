/**
 * Managed Redis over TLS (issue 28, point 17), against real redis-server processes started by the
 * test with a TLS port and certificates it makes with openssl (test/support/redisTls.ts: a CA, a
 * server certificate naming only `redis.test`, a client certificate): a Redis Cluster (3 masters,
 * cluster bus and announced ports on TLS), a Sentinel set (sentinel, master and replica on TLS) and
 * one node. Sluice's clients are built as the server builds them, from the environment
 * (REDIS_URL `rediss://`, SLUICE_REDIS_SENTINELS `rediss://`, SLUICE_REDIS_TLS_CA_FILE, _CERT_FILE,
 * _KEY_FILE, _SERVERNAME) through lib/config/redisTls.ts and createRedisClient; each must make
 * exact limiter decisions. Certificates are verified: another CA, or no SNI name for a certificate
 * that names no address, fails. Everything started is stopped, the certificates removed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/test/support/freePort";
import { startRedisCluster, type RedisClusterHandle } from "@/test/support/redisCluster";
import { startRedisSentinel, type RedisSentinelHandle } from "@/test/support/redisSentinel";
import { startRedisServer, type RedisServerHandle } from "@/test/support/redisServer";
import { makeRedisTlsFiles, tlsServerArgs, TLS_SERVER_NAME, type RedisTlsFiles } from "@/test/support/redisTls";
import { limiterRule } from "@/test/support/rules";
import { listUsesTls, redisTlsFrom } from "../config/redisTls";
import { createLimiter } from "../limiter/decide";
import { createRedisClient, type ConnectOptions, type RedisClient } from "./connect";

const LIMIT = 3;
let files: RedisTlsFiles;
let cluster: RedisClusterHandle | undefined;
let sentinel: RedisSentinelHandle | undefined;
let single: RedisServerHandle | undefined;
let singleTlsPort: number;
const clients: RedisClient[] = [];

beforeAll(async () => {
  files = await makeRedisTlsFiles();
  singleTlsPort = await freePort();
  [cluster, sentinel, single] = await Promise.all([
    startRedisCluster({ masters: 3, tls: files }),
    startRedisSentinel({ name: "sluice-tls", tls: files }),
    startRedisServer({ args: tlsServerArgs(files, singleTlsPort) }),
  ]);
}, 120_000);

afterAll(async () => {
  for (const client of clients) client.disconnect();
  await Promise.all([cluster?.stop(), sentinel?.stop(), single?.stop()]);
  await files?.remove();
});

/** The environment an operator would set for this managed Redis. */
function tlsEnv(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    SLUICE_REDIS_TLS_CA_FILE: files.ca,
    SLUICE_REDIS_TLS_CERT_FILE: files.clientCert,
    SLUICE_REDIS_TLS_KEY_FILE: files.clientKey,
    SLUICE_REDIS_TLS_SERVERNAME: TLS_SERVER_NAME,
    ...overrides,
  };
}

/** A client as lib/redis/client.ts makes it from REDIS_URL and the TLS variables. */
function clientFor(
  url: string,
  env: Record<string, string | undefined>,
  more: Partial<ConnectOptions> = {},
): RedisClient {
  const anyTls = listUsesTls(url, "REDIS_URL") || more.sentinel?.tls === true;
  const client = createRedisClient({
    url,
    cluster: url.includes(","),
    timeoutMs: 2_000,
    autoPipelining: false,
    tls: redisTlsFrom(env, anyTls),
    ...more,
  });
  client.on("error", () => undefined);
  clients.push(client);
  return client;
}

/** 2 × limit concurrent decisions for one key on `redis`: how many were allowed. */
async function allowedOf(redis: RedisClient, keyId: string): Promise<number> {
  const limiter = createLimiter({ redis, prefix: "tls-test:", timeoutMs: 2_000 });
  const rule = limiterRule({
    name: "probe",
    algorithm: "sliding_log",
    limit: LIMIT,
    windowMs: 60_000,
    failMode: "closed",
  });
  const decisions = await Promise.all(
    Array.from({ length: 2 * LIMIT }, () => limiter.decide([rule], { tenantId: "tls-tenant", keyId })),
  );
  expect(decisions.filter((d) => d.unavailable)).toEqual([]);
  return decisions.filter((d) => d.allowed).length;
}

describe("Redis over TLS", () => {
  it("a Redis Cluster (rediss:// seeds): every node reached over TLS with the CA, client certificate and SNI name", async () => {
    const redis = clientFor(cluster!.tlsUrl!, tlsEnv());
    // Keys of several tenants land on several masters: each one is reached over TLS.
    for (const tenant of ["a", "b", "c", "d", "e", "f"]) await redis.set(`tls-test:{${tenant}}`, "1", "PX", 60_000);
    expect(await allowedOf(redis, "cluster")).toBe(LIMIT);
  });

  it("Redis Sentinel: the sentinels (rediss:// entries) and the master they name, both over TLS", async () => {
    const redis = clientFor("rediss://127.0.0.1:1", tlsEnv(), {
      sentinel: { sentinels: sentinel!.tlsSentinels!, name: sentinel!.name, tls: true },
    });
    expect(await allowedOf(redis, "sentinel")).toBe(LIMIT);
    expect(await redis.call("ROLE").then((r) => (r as unknown[])[0])).toBe("master");
  });

  it("one node, with the CA file and SNI name", async () => {
    const redis = clientFor(`rediss://127.0.0.1:${singleTlsPort}`, tlsEnv());
    expect(await allowedOf(redis, "single")).toBe(LIMIT);
  });

  it("verifies the certificate: another CA, or no SNI name for a certificate naming no address, is refused", async () => {
    const url = `rediss://127.0.0.1:${singleTlsPort}`;
    const otherCa = clientFor(url, tlsEnv({ SLUICE_REDIS_TLS_CA_FILE: files.otherCa }));
    await expect(otherCa.ping()).rejects.toThrow();
    const noName = clientFor(url, tlsEnv({ SLUICE_REDIS_TLS_SERVERNAME: undefined }));
    await expect(noName.ping()).rejects.toThrow();
  });
});
