/**
 * Two built Sluice servers on a throwaway Redis Cluster (3 masters + 3 replicas on loopback ports,
 * test/support/redisCluster.ts) and the test database, for the Cluster HTTP tests:
 * - `startClusterBed(label, env)` starts the Cluster, then servers A and B (one after the other:
 *   two Next servers starting at once on 2 cores slow each other down) with SLUICE_REDIS_CLUSTER=1;
 * - `tenant(rules, where?)` creates a tenant through A with one key and `rules`, retrying with new
 *   tenants until its hash-tag slot is on the master `where` picks (if given), and returns once B
 *   knows the key; `ownerPort` is the master serving the tenant's keys;
 * - `stop()` stops both servers and the Cluster and deletes the tenants it created.
 */
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { adminClient, deleteTenants, apiCall, type AdminClient, type CreatedKey } from "./adminClient";
import { startRedisCluster, type RedisClusterHandle } from "./redisCluster";
import { sluiceEnv, TEST_DATABASE_URL, waitUntil, type SluiceTestEnv } from "./sluiceEnv";
import { startSluice, type SluiceServer } from "./sluiceServer";

/** Tenants tried before giving up on landing one on a given master (each lands on one of 3). */
const PLACEMENT_ATTEMPTS = 40;

export interface BedTenant {
  tenantId: string;
  key: CreatedKey;
  ownerPort: number;
}

export interface ClusterBed {
  cluster: RedisClusterHandle;
  a: SluiceServer;
  b: SluiceServer;
  admin: AdminClient;
  env: SluiceTestEnv;
  tenant(rules: RuleInput[], where?: (ownerPort: number) => boolean): Promise<BedTenant>;
  stop(): Promise<void>;
}

export async function startClusterBed(label: string, extraEnv: Record<string, string> = {}): Promise<ClusterBed> {
  const cluster = await startRedisCluster({ masters: 3, replicasPerMaster: 1 });
  const env = sluiceEnv(label, { REDIS_URL: cluster.url, SLUICE_REDIS_CLUSTER: "1", ...extraEnv });
  const servers: SluiceServer[] = [];
  const created: string[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await cluster.stop();
    await deleteTenants(TEST_DATABASE_URL, created);
  };
  try {
    servers.push(await startSluice({ env: env.env }));
    servers.push(await startSluice({ env: env.env }));
  } catch (error) {
    await stop();
    throw error;
  }
  const [a, b] = servers as [SluiceServer, SluiceServer];
  const admin = adminClient(a.url, env.adminToken);

  const tenant = async (rules: RuleInput[], where: (ownerPort: number) => boolean = () => true): Promise<BedTenant> => {
    for (let attempt = 0; attempt < PLACEMENT_ATTEMPTS; attempt++) {
      const { id } = await admin.createTenant();
      created.push(id);
      const ownerPort = await cluster.slotOwnerPort(`{${id}}`);
      if (!where(ownerPort)) continue;
      // Rules before the key: any load of the tenant that sees the key then sees the rules too, so
      // "B knows the key" below also means B holds the rules (the other order raced: B could load
      // the key on its notice and answer before the rules' notice reached it).
      await admin.putTenantRules(id, rules);
      const key = await admin.createKey(id);
      // A path no rule matches: 200 once B has loaded the key (401 before).
      await waitUntil(
        async () => (await apiCall(b.url, "/api/v1/echo/known", { key: key.key })).status === 200,
        10_000,
        "B knows the new key",
      );
      return { tenantId: id, key, ownerPort };
    }
    throw new Error(`no tenant landed on the wanted master in ${PLACEMENT_ATTEMPTS} attempts`);
  };

  return { cluster, a, b, admin, env, tenant, stop };
}
