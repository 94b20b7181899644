/**
 * Two built Sluice servers on one Redis (one prefix) and the test database, for HTTP tests of what
 * must hold on every instance. `twoServersForSuite` registers the suite's set-up and clean-up: the
 * servers start one after the other (two Next servers starting at once on 2 cores slow each other
 * down); afterwards both stop, the tenants passed to `track` are deleted and the prefix's Redis keys
 * removed. The handle's fields are read inside tests, once `beforeAll` has run.
 */
import { afterAll, beforeAll } from "vitest";
import { adminClient, deleteTenants, type AdminClient } from "./adminClient";
import { cleanupRedis, sluiceEnv, TEST_DATABASE_URL, type SluiceTestEnv } from "./sluiceEnv";
import { startSluice, type SluiceServer } from "./sluiceServer";

export interface TwoServers {
  readonly a: SluiceServer;
  readonly b: SluiceServer;
  /** The admin API through A. */
  readonly adminA: AdminClient;
  readonly env: SluiceTestEnv;
  /** A tenant the suite created, deleted after it. */
  track(tenantId: string): void;
}

export function twoServersForSuite(label: string, extraEnv: Record<string, string> = {}): TwoServers {
  const env = sluiceEnv(label, extraEnv);
  const servers: SluiceServer[] = [];
  const tenants: string[] = [];
  let admin: AdminClient | undefined;

  beforeAll(async () => {
    servers.push(await startSluice({ env: env.env }));
    servers.push(await startSluice({ env: env.env }));
    admin = adminClient(servers[0]!.url, env.adminToken);
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await deleteTenants(TEST_DATABASE_URL, tenants);
    await cleanupRedis(env.prefix);
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the two servers are not started yet (read them inside a test)");
    return value;
  };
  return {
    get a() {
      return started(servers[0]);
    },
    get b() {
      return started(servers[1]);
    },
    get adminA() {
      return started(admin);
    },
    env,
    track: (tenantId) => void tenants.push(tenantId),
  };
}
