/**
 * The HTTP test bed: two built Sluice servers on one Redis (one prefix) and the test database, for
 * HTTP tests of what must hold on every instance. `twoServersForSuite` registers the suite's set-up
 * and clean-up: the servers start one after the other (two Next servers starting at once on 2 cores
 * slow each other down); afterwards both stop, the tenants passed to `track` (and those
 * `tenantWithKey` made) are deleted and the prefix's Redis keys removed. The handle's fields are
 * read inside tests, once `beforeAll` has run.
 *
 * `tenantWithKey(rules)` is the usual fixture: a tenant made through A with `rules` plus
 * PROBE_RULE (optionally a gateway upstream) and one key, returned once B serves them. The probe
 * charges only /api/v1/probe, so `rules` must not match that path; B answering it with the probe's
 * policy proves B has the tenant's rule list and key (set-up, not an assertion).
 */
import { afterAll, beforeAll, expect } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { adminClient, apiCall, deleteTenants, type AdminClient, type ApiAnswer, type CreatedKey } from "./adminClient";
import { cleanupRedis, sluiceEnv, TEST_DATABASE_URL, waitUntil, type SluiceTestEnv } from "./sluiceEnv";
import { startSluice, type SluiceServer } from "./sluiceServer";

/** Charges only /api/v1/probe: B showing its policy proves B has the tenant's rules and key. */
export const PROBE_RULE: RuleInput = {
  name: "probe",
  algorithm: "sliding_window",
  limit: 1_000_000,
  windowMs: 3_600_000,
  match: { path: "/probe" },
};

export interface TenantWithKeyOptions {
  /** The tenant's gateway upstream, set before its rules. */
  upstream?: { url: string; timeoutMs: number };
  /** The rule that proves B serves the tenant (PROBE_RULE unless given); it must match /probe only. */
  probe?: RuleInput;
  /** Headers of the probe request (a rule that refuses a request without its header, say). */
  probeHeaders?: Record<string, string>;
}

export interface TwoServers {
  readonly a: SluiceServer;
  readonly b: SluiceServer;
  /** The admin API through A. */
  readonly adminA: AdminClient;
  /** The admin API through B. */
  readonly adminB: AdminClient;
  readonly env: SluiceTestEnv;
  /** A tenant the suite created, deleted after it. */
  track(tenantId: string): void;
  /** A tenant with `rules` (plus the probe) and one key, once B serves them. */
  tenantWithKey(rules: RuleInput[], options?: TenantWithKeyOptions): Promise<{ tenantId: string; key: CreatedKey }>;
}

/** GET /api/v1/echo with `key` on `server`. */
export const echo = (server: SluiceServer, key: CreatedKey): Promise<ApiAnswer> =>
  apiCall(server.url, "/api/v1/echo", { key: key.key });

export function twoServersForSuite(label: string, extraEnv: Record<string, string> = {}): TwoServers {
  const env = sluiceEnv(label, extraEnv);
  const servers: SluiceServer[] = [];
  const tenants: string[] = [];
  const admins: AdminClient[] = [];

  beforeAll(async () => {
    servers.push(await startSluice({ env: env.env }));
    servers.push(await startSluice({ env: env.env }));
    admins.push(...servers.map((server) => adminClient(server.url, env.adminToken)));
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

  async function tenantWithKey(
    rules: RuleInput[],
    options: TenantWithKeyOptions = {},
  ): Promise<{ tenantId: string; key: CreatedKey }> {
    const adminA = started(admins[0]);
    const b = started(servers[1]);
    const probe = options.probe ?? PROBE_RULE;
    const tenant = await adminA.createTenant();
    tenants.push(tenant.id);
    if (options.upstream) {
      const put = await adminA.request("PUT", `/api/admin/tenants/${tenant.id}/upstream`, options.upstream);
      expect(put.status, JSON.stringify(put.body)).toBe(200);
    }
    await adminA.putTenantRules(tenant.id, [...rules, probe]);
    const key = await adminA.createKey(tenant.id);
    const served = async () =>
      (
        (await apiCall(b.url, "/api/v1/probe", { key: key.key, headers: options.probeHeaders })).headers.get(
          "ratelimit-policy",
        ) ?? ""
      ).includes(`"${probe.name}"`);
    await waitUntil(served, 10_000, "B serves the tenant's rules and key");
    return { tenantId: tenant.id, key };
  }

  return {
    get a() {
      return started(servers[0]);
    },
    get b() {
      return started(servers[1]);
    },
    get adminA() {
      return started(admins[0]);
    },
    get adminB() {
      return started(admins[1]);
    },
    env,
    track: (tenantId) => void tenants.push(tenantId),
    tenantWithKey,
  };
}

export interface OneServer {
  readonly server: SluiceServer;
  /** The admin API through the server. */
  readonly admin: AdminClient;
  readonly env: SluiceTestEnv;
  /** A tenant the suite created, deleted after it. */
  track(tenantId: string): void;
}

/** One built server for the suite, with the same set-up and clean-up as `twoServersForSuite`. */
export function oneServerForSuite(label: string, extraEnv: Record<string, string> = {}): OneServer {
  const env = sluiceEnv(label, extraEnv);
  const tenants: string[] = [];
  let server: SluiceServer | undefined;
  let admin: AdminClient | undefined;

  beforeAll(async () => {
    server = await startSluice({ env: env.env });
    admin = adminClient(server.url, env.adminToken);
  });

  afterAll(async () => {
    await server?.stop();
    await deleteTenants(TEST_DATABASE_URL, tenants);
    await cleanupRedis(env.prefix);
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the server is not started yet (read it inside a test)");
    return value;
  };
  return {
    get server() {
      return started(server);
    },
    get admin() {
      return started(admin);
    },
    env,
    track: (tenantId) => void tenants.push(tenantId),
  };
}
