/**
 * Host lookup at scale (issue 29, "10,000 hosts across tenants: host lookup O(1), no scan per
 * request"): the data plane's `tenantOfHost` (lib/dataplane/dataPlane.ts: hostLookupKey, then the
 * access cache's host Map) timed over the same stream of Host headers against an access cache
 * holding 10 hosts (one tenant) and 10,000 (100 tenants of 100 hosts, the most a tenant may have).
 * A lookup that scanned the hosts would take about 1,000 times as long at 10,000; one Map lookup
 * takes about as long at either size. Pure CPU in this process, no Redis or Postgres: the access
 * cache is loaded from tenants made here (its loader is the only thing replaced).
 * Headers: 100,000, a quarter each an exact host, an upper-case host with a port, a host with a
 * trailing dot, and a name no tenant holds. Rows: ops/s = lookups per second; p50/p99 over batches
 * of 1,000 lookups, as ms per lookup; `refused %` = the share of lookups that found a tenant.
 */
import { tenantOfHost } from "../../../lib/dataplane/dataPlane";
import { AccessCache } from "../../../lib/policy/compiled/accessCache";
import type { TenantAccess } from "../../../lib/policy/compiled/accessLoader";
import { DEFAULT_IDENTITY } from "../../../lib/policy/identity/identitySchema";
import type { BenchContext } from "../context";
import { BATCH, lookupLoop, lookupRow } from "../lookupLoop";
import { round } from "../measure";
import type { RunRow } from "../types";

export const HOST_TABLE_SIZES = [10, 10_000] as const;
export const HOSTS_PER_TENANT = 100;
const HEADERS = 100_000;

/** `count` tenant hosts: host h of tenant t is `api-<h>.t<t>.bench.example.com`, at most 100 per tenant. */
export function benchHosts(count: number): { tenantId: string; host: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const tenant = Math.floor(i / HOSTS_PER_TENANT);
    return {
      tenantId: `t${String(tenant).padStart(7, "0")}`,
      host: `api-${i % HOSTS_PER_TENANT}.t${tenant}.bench.example.com`,
    };
  });
}

/** The Host headers looked up: the hosts in the four forms above, spread over the table. */
export function hostHeaders(hosts: readonly { host: string }[], count = HEADERS): string[] {
  return Array.from({ length: count }, (_, i) => {
    const host = hosts[(i * 7919) % hosts.length]!.host;
    switch (i % 4) {
      case 0:
        return host;
      case 1:
        return `${host.toUpperCase()}:8443`;
      case 2:
        return `${host}.`;
      default:
        return `unknown-${i}.example.org`;
    }
  });
}

async function loadedCache(hosts: { tenantId: string; host: string }[]): Promise<AccessCache> {
  const tenants = new Map<string, TenantAccess>();
  for (const { tenantId, host } of hosts) {
    let tenant = tenants.get(tenantId);
    if (!tenant) {
      tenant = {
        id: tenantId,
        name: tenantId,
        rules: [],
        keys: new Map(),
        identity: { ...DEFAULT_IDENTITY, hosts: [] },
      };
      tenants.set(tenantId, tenant);
    }
    tenant.identity!.hosts.push(host);
  }
  const cache = new AccessCache({ loadAll: async () => tenants, loadTenant: async (id) => tenants.get(id) ?? null });
  await cache.ready();
  return cache;
}

export async function hostLookupRows(ctx: BenchContext): Promise<RunRow[]> {
  const rows: RunRow[] = [];
  // The same headers for both tables: taken from the small table's hosts, which the large one holds too.
  const small = benchHosts(HOST_TABLE_SIZES[0]);
  const headers = hostHeaders(small);
  for (const size of HOST_TABLE_SIZES) {
    const cache = await loadedCache(benchHosts(size));
    const m = await lookupLoop(ctx.settings, headers.length, (i) => tenantOfHost(cache, headers[i]) !== undefined);
    rows.push(
      lookupRow(
        "identity",
        `host-lookup-${size}-hosts`,
        m,
        `tenantOfHost over ${size.toLocaleString("en")} hosts (${Math.ceil(size / HOSTS_PER_TENANT)} tenant(s)); ${round(m.p50Ms * 1e6, 1)} ns per lookup (p50 of ${BATCH}-lookup batches); refused % = lookups that found a tenant`,
      ),
    );
  }
  return rows;
}
