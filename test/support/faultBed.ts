/**
 * The set-up shared by the Redis fault tests (test/faults/): a throwaway redis-server
 * (redisServer.ts) the test may stop, pause or flush; one or more built Sluice servers on it
 * (sluiceServer.ts, with the test database and a prefix of their own); one tenant whose rules
 * charge one path per fail mode (`/api/v1/echo/open`, `/closed`, `/local`); and helpers to read
 * what the fault did: the server log written since a mark, and the connections Redis sees. With
 * `proxy`, the servers reach Redis through a proxy that can cut or silence the link (faultyProxy.ts).
 * `close()` stops the servers and Redis and deletes the tenant.
 */
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import type { FailMode } from "@/lib/limiter/types";
import { adminClient, deleteTenants, type AdminClient, type CreatedKey } from "./adminClient";
import { startFaultyProxy, type FaultyProxy } from "./faultyProxy";
import { startRedisServer, withRedis, type RedisServerHandle } from "./redisServer";
import { sluiceEnv, TEST_DATABASE_URL, type SluiceTestEnv } from "./sluiceEnv";
import { startSluice, type SluiceServer } from "./sluiceServer";

export const HOUR_MS = 3_600_000;
export const FAIL_MODE_LIST: readonly FailMode[] = ["open", "closed", "local"];

export const failModePath = (mode: FailMode): string => `/api/v1/echo/${mode}`;

/** One sliding_log rule per fail mode, each charging only its own path. */
export function failModeRules(limits: Record<FailMode, number>): RuleInput[] {
  return FAIL_MODE_LIST.map((mode) => ({
    name: `fm-${mode}`,
    algorithm: "sliding_log",
    limit: limits[mode],
    windowMs: HOUR_MS,
    failMode: mode,
    match: { path: failModePath(mode) },
  }));
}

export interface FaultBed {
  redis: RedisServerHandle;
  /** Between the servers and Redis, when asked for. */
  proxy: FaultyProxy | null;
  servers: SluiceServer[];
  setup: SluiceTestEnv;
  admin: AdminClient;
  tenantId: string;
  createKey(name?: string): Promise<CreatedKey>;
  /** A mark in a server's log; `logSince(mark)` is what it printed after. */
  logMark(server?: SluiceServer): number;
  logSince(mark: number, server?: SluiceServer): string[];
  /** CLIENT LIST of the throwaway Redis, without the connection that asks. */
  clients(): Promise<string[]>;
  close(): Promise<void>;
}

export interface FaultBedOptions {
  label: string;
  rules: RuleInput[];
  /** Extra server environment, e.g. SLUICE_REDIS_TIMEOUT_MS. */
  env?: Record<string, string>;
  instances?: number;
  /** Extra redis-server arguments, e.g. ["--enable-debug-command", "yes"]. */
  redisArgs?: string[];
  /** Put a faulty proxy between the servers and Redis. */
  proxy?: boolean;
}

export async function startFaultBed(options: FaultBedOptions): Promise<FaultBed> {
  const redis = await startRedisServer({ args: options.redisArgs });
  const proxy = options.proxy ? await startFaultyProxy(redis.port) : null;
  const setup = sluiceEnv(options.label, { REDIS_URL: proxy?.url ?? redis.url, ...options.env });
  const servers: SluiceServer[] = [];
  const tenants: string[] = [];
  const close = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await proxy?.close();
    await redis.stop();
    await deleteTenants(TEST_DATABASE_URL, tenants);
  };
  try {
    // One after the other: two servers starting at once on 2 cores only slow each other down.
    for (let i = 0; i < (options.instances ?? 1); i++) servers.push(await startSluice({ env: setup.env }));
    const admin = adminClient(servers[0]!.url, setup.adminToken);
    const tenant = await admin.createTenant();
    tenants.push(tenant.id);
    await admin.putTenantRules(tenant.id, options.rules);
    return {
      redis,
      proxy,
      servers,
      setup,
      admin,
      tenantId: tenant.id,
      createKey: (name) => admin.createKey(tenant.id, name),
      logMark: (server = servers[0]!) => server.log().length,
      logSince: (mark, server = servers[0]!) =>
        server
          .log()
          .slice(mark)
          .split("\n")
          .filter((line) => line.trim() !== ""),
      clients: () =>
        withRedis(redis.port, async (client) => {
          const list = String(await client.call("CLIENT", "LIST"));
          return list.split("\n").filter((line) => line.trim() !== "" && !/ cmd=client\|list /.test(line));
        }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
