/**
 * The data plane (lib/dataplane/dataPlane.ts) in the test process without Postgres or a build: the
 * handler `npm start` runs, over an access cache whose tenants the test hands it (no rule store), a
 * real limiter on the shared Redis under a prefix of its own, the real gateway forwarding, and a
 * test upstream that records what reaches it (test/support/testUpstream.ts). For tests of how the
 * data plane reads a request (path, method, headers, query) before any rule sees it.
 *
 * - `dataPlaneBed(label)`, at the top of a test file: starts the server and the upstream before the
 *   file's tests, stops both and deletes the prefix's keys after;
 * - `bed.tenant(rules, { identity?, upstream? })`: a fresh tenant with these rules (parsed by the rule
 *   schema, as the admin API would) and one key, with the upstream as its gateway (unless
 *   `upstream: false`) and the identity settings given (parsed by their schema: hosts, callers);
 *   answers the key to send;
 * - `bed.send(key, request)`: one request with its target as given (rawRequest); `bed.reached(tenantId)`:
 *   what of that tenant reached the upstream; `bed.recorded(tenantId)`: its requests as the
 *   monitoring recorder was handed them (method, path, decision); `bed.hotCallers(tenantId)`: the
 *   monitoring recorder flushed, the tenant's hot callers of the last minutes (lib/monitoring/query/hotKeysQuery.ts).
 * - `dataPlaneBed(label, { cluster: true })`: a throwaway Redis Cluster (3 masters, test/support/redisCluster.ts)
 *   instead of the shared Redis, and TWO data planes on it, each with its own Cluster client, limiter and
 *   access cache over the same tenants (two instances, in one process); `send(key, request, 1)` goes to the
 *   second. The Cluster is stopped after the file's tests. The monitoring recorder is left out there
 *   (hotCallers is for the single-Redis bed).
 * - `bed.flushRecorder()`, `bed.redis`, `bed.prefix`: the recorder drained, and where it wrote (usage roll-ups).
 * - `tenant(rules, { tiers })`: tier rules by tier name (layered over the tenant's, as the loader does).
 * Its parts serve other beds too (test/support/oneKeyDataPlane.ts): `oneKeyTenant` (a tenant with
 * one key, in the loader's shape), `accessOver` (the real access cache over such tenants) and
 * `listenLocal` (a server on a free local port).
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";
import { TRUST_NO_PROXY } from "@/lib/config/trustProxy";
import { createDataPlane } from "@/lib/dataplane/dataPlane";
import { closeGatewayAgent } from "@/lib/dataplane/gateway/gatewayAgent";
import { forwardToUpstream } from "@/lib/dataplane/gateway/forwardToUpstream";
import { configureServer } from "@/lib/dataplane/httpServer";
import { createLimiter } from "@/lib/limiter/decide";
import { AccessCache } from "@/lib/policy/compiled/accessCache";
import type { KeyAccess, TenantAccess } from "@/lib/policy/compiled/accessLoader";
import { compileRule } from "@/lib/policy/compiled/effectiveRules";
import { mintKey } from "@/lib/policy/keys/apiKeySecret";
import { ruleListSchema, type Rule, type RuleInput } from "@/lib/policy/rules/ruleSchema";
import { identitySchema, type IdentityInput } from "@/lib/policy/identity/identitySchema";
import { rawRequest, type RawAnswer, type RawRequest } from "./rawHttp";
import { DecisionRecorder } from "@/lib/monitoring/record/decisionRecorder";
import { accessDirectory } from "@/lib/monitoring/query/monitoringDirectory";
import { hotKeys } from "@/lib/monitoring/query/hotKeysQuery";
import type { HotKey } from "@/lib/monitoring/query/monitoringAnswers";
import { createRedisClient, type RedisClient } from "@/lib/redis/connect";
import { compileTierRule, layerRules } from "@/lib/policy/compiled/effectiveRules";
import { deleteByPrefix, plainRedis, uniquePrefix } from "./testRedis";
import { startRedisCluster, type RedisClusterHandle } from "./redisCluster";
import type { DecisionSink, RecordedRequest } from "@/lib/monitoring/record/decisionRecorder";
import { startTestUpstream, type SeenRequest, type TestUpstream } from "./testUpstream";

export interface DataPlaneBed {
  readonly url: string;
  tenant(
    rules: RuleInput[],
    options?: { identity?: IdentityInput; upstream?: boolean; tiers?: Record<string, RuleInput[]> },
  ): Promise<{ tenantId: string; key: string }>;
  /** To the first data plane, or with `instance` 1 to the second (cluster bed). */
  send(key: string | null, request: RawRequest, instance?: number): Promise<RawAnswer>;
  reached(tenantId: string): SeenRequest[];
  recorded(tenantId: string): RecordedRequest[];
  hotCallers(tenantId: string): Promise<HotKey[]>;
  /** Writes what the monitoring recorder holds (single-Redis bed). */
  flushRecorder(): Promise<void>;
  /** The bed's Redis connection and key prefix (the monitoring data's, for a usage roll-up). */
  readonly redis: RedisClient;
  readonly prefix: string;
}

const id8 = () => randomBytes(6).toString("base64url").replace(/[-_]/g, "x").slice(0, 8);

/**
 * A tenant of `input` (parsed by the rule schema, as the admin API would; compiled with the ids
 * `ruleId` gives, by default the rule's place) with ONE key, in the access loader's shape, and the
 * key's secret to send. Ids are made unless given (a key id is 8 base-62 characters).
 */
export function oneKeyTenant(
  input: RuleInput[],
  options: {
    tenantId?: string;
    keyId?: string;
    upstream?: TenantAccess["upstream"];
    ruleId?: (rule: Rule, index: number) => string;
  } = {},
): { tenant: TenantAccess; key: string } {
  const tenantId = options.tenantId ?? id8();
  const keyId = options.keyId ?? id8();
  const minted = mintKey(keyId);
  const ruleId = options.ruleId ?? ((_rule, i) => String(i + 1));
  const rules = ruleListSchema.parse(input).map((rule, i) => compileRule(rule, ruleId(rule, i), false));
  const key: KeyAccess = {
    id: keyId,
    tenantId,
    name: "key",
    secretHash: minted.secretHash,
    expiresAtMs: null,
    overrides: [],
    rules,
  };
  return {
    tenant: {
      id: tenantId,
      name: tenantId,
      rules,
      keys: new Map([[keyId, key]]),
      ...(options.upstream ? { upstream: options.upstream } : {}),
    },
    key: minted.key,
  };
}

/** The real access cache, loading from `tenants` (the test's stand-in for Postgres): call tenantChanged after a change. */
export function accessOver(tenants: ReadonlyMap<string, TenantAccess>): AccessCache {
  return new AccessCache({
    loadAll: async () => new Map(tenants),
    loadTenant: async (id) => tenants.get(id) ?? null,
  });
}

/** `server` listening on 127.0.0.1 at a free port; `close()` ends its connections and stops it. */
export async function listenLocal(server: http.Server): Promise<{ url: string; port: number; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function dataPlaneBed(label: string, options: { cluster?: boolean } = {}): DataPlaneBed {
  const redis = plainRedis();
  const prefix = uniquePrefix(label);
  const tenants = new Map<string, TenantAccess>();
  const newAccess = () => accessOver(tenants);
  const access = newAccess();
  const accesses = options.cluster ? [access, newAccess()] : [access];
  const servers: http.Server[] = [];
  const urls: string[] = [];
  let cluster: RedisClusterHandle | undefined;
  const clusterClients: RedisClient[] = [];
  let upstream: TestUpstream | undefined;
  const recorded: RecordedRequest[] = [];
  const monitoring = new DecisionRecorder({ redis, prefix, timeoutMs: 2_000, log: () => undefined });
  // What the recorder is handed (bed.recorded), and the real recorder behind it (bed.hotCallers).
  const recorder: DecisionSink = {
    recordRequest: (request) => {
      recorded.push(request);
      monitoring.recordRequest(request);
    },
    recordCheck: (...args) => monitoring.recordCheck(...args),
  };

  beforeAll(async () => {
    upstream = await startTestUpstream();
    if (options.cluster) cluster = await startRedisCluster({ masters: 3 });
    for (const instanceAccess of accesses) {
      let limiterRedis: RedisClient = redis;
      if (cluster) {
        // A generous timeout: on a loaded machine a slow answer must not turn into a fail-open.
        limiterRedis = createRedisClient({ url: cluster.url, cluster: true, timeoutMs: 2_000, autoPipelining: true });
        clusterClients.push(limiterRedis);
      }
      const limiter = createLimiter({ redis: limiterRedis, prefix, timeoutMs: 2_000 });
      const server = http.createServer(
        createDataPlane({
          admit: {
            access: instanceAccess,
            limiter,
            anonLimitPerMinute: 1_000_000,
            enforce: true,
            ...(cluster ? {} : { recorder }),
          },
          check: { access: instanceAccess, limiter },
          trustProxy: TRUST_NO_PROXY,
          gateway: { upstreamFor: (tenantId) => instanceAccess.upstreamFor(tenantId), forward: forwardToUpstream },
        }),
      );
      configureServer(server);
      servers.push(server);
      urls.push((await listenLocal(server)).url);
    }
  });

  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await upstream?.close();
    closeGatewayAgent();
    for (const client of clusterClients) client.disconnect();
    await cluster?.stop();
    await deleteByPrefix(redis, prefix);
    redis.disconnect();
  });

  return {
    get url() {
      return urls[0] ?? "";
    },
    redis,
    prefix,
    async flushRecorder() {
      await monitoring.drain();
    },
    async tenant(input, options = {}) {
      const { tenant, key } = oneKeyTenant(input, {
        ...(options.upstream === false ? {} : { upstream: { url: upstream!.url, timeoutMs: 5_000 } }),
      });
      const tenantId = tenant.id;
      tenants.set(tenantId, {
        ...tenant,
        ...(options.identity ? { identity: identitySchema.parse(options.identity) } : {}),
        ...(options.tiers ? { tiers: compileTiers(tenant.rules, options.tiers) } : {}),
      });
      for (const instanceAccess of accesses) {
        await instanceAccess.tenantChanged(tenantId);
        await instanceAccess.ready();
      }
      return { tenantId, key };
    },
    send(key, request, instance = 0) {
      const headers = { ...request.headers };
      if (key !== null) headers["x-api-key"] = key;
      return rawRequest(urls[instance]!, { ...request, headers });
    },
    reached(tenantId) {
      return upstream!.seen.filter((s) => s.headers["x-sluice-tenant"] === tenantId);
    },
    recorded(tenantId) {
      return recorded.filter((r) => r.tenantId === tenantId);
    },
    async hotCallers(tenantId) {
      await monitoring.flush();
      const directory = accessDirectory(
        access,
        async () => [],
        async () => null,
      );
      const now = Date.now();
      const read = { redis, prefix, timeoutMs: 2_000, directory };
      return (await hotKeys(read, { tenantId, fromMs: now - 5 * 60_000, toMs: now + 60_000 })).keys;
    },
  };
}

/** Tier rules compiled and layered over the tenant's, as lib/policy/compiled/accessLoader.ts does. */
function compileTiers(
  tenantRules: ReturnType<typeof compileRule>[],
  tiers: Record<string, RuleInput[]>,
): TenantAccess["tiers"] {
  return new Map(
    Object.entries(tiers).map(([tier, input]) => {
      const own = ruleListSchema.parse(input).map((rule, i) => compileTierRule(rule, `${tier}-${i + 1}`, tier));
      return [tier, { own, rules: layerRules(tenantRules, own) }];
    }),
  );
}
