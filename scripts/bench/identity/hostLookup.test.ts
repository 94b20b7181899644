import { describe, expect, it } from "vitest";
import { hostLookupKey, tenantHostProblem } from "../../../lib/policy/identity/tenantHost";
import { benchHosts, hostHeaders, HOSTS_PER_TENANT } from "./hostLookup";

describe("benchHosts", () => {
  it("makes valid, distinct tenant hosts, at most 100 per tenant", () => {
    const hosts = benchHosts(10_000);
    expect(new Set(hosts.map((h) => h.host)).size).toBe(10_000);
    expect(hosts.every((h) => tenantHostProblem(h.host) === null)).toBe(true);
    const perTenant = new Map<string, number>();
    for (const h of hosts) perTenant.set(h.tenantId, (perTenant.get(h.tenantId) ?? 0) + 1);
    expect(perTenant.size).toBe(100);
    expect(Math.max(...perTenant.values())).toBe(HOSTS_PER_TENANT);
  });

  it("holds the smaller table's hosts in the larger one, so both are looked up with the same headers", () => {
    const large = new Set(benchHosts(10_000).map((h) => `${h.tenantId} ${h.host}`));
    expect(benchHosts(10).every((h) => large.has(`${h.tenantId} ${h.host}`))).toBe(true);
  });
});

describe("hostHeaders", () => {
  it("sends three forms of a known host for every name no tenant holds", () => {
    const hosts = benchHosts(10);
    const known = new Set(hosts.map((h) => h.host));
    const headers = hostHeaders(hosts, 1_000);
    const found = headers.filter((h) => known.has(hostLookupKey(h)!));
    expect(found.length).toBe(750);
    expect(headers.slice(0, 4).map((h) => /[A-Z]/.test(h) || h.endsWith(":8443") || h.endsWith("."))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
});
