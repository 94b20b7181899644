import { describe, expect, it } from "vitest";
import { AccessCache } from "./accessCache";
import type { AccessLoader, KeyAccess, TenantAccess } from "./accessLoader";

function tenant(id: string, keyIds: string[], name = id): TenantAccess {
  const keys = new Map<string, KeyAccess>(keyIds.map((k) => [k, { id: k, tenantId: id, name: k, secretHash: "h", overrides: [], rules: [] }]));
  return { id, name, rules: [], keys };
}

/** A loader whose answers the test releases one by one. */
function controlledLoader() {
  const pending: { kind: "all" | string; resolve: (v: unknown) => void; reject: (e: Error) => void }[] = [];
  const loader: AccessLoader = {
    loadAll: () => new Promise((resolve, reject) => pending.push({ kind: "all", resolve: resolve as (v: unknown) => void, reject })),
    loadTenant: (id) => new Promise((resolve, reject) => pending.push({ kind: id, resolve: resolve as (v: unknown) => void, reject })),
  };
  return { loader, pending };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("AccessCache", () => {
  it("ready() rejects while the first load fails, and loads again on the next call", async () => {
    const { loader, pending } = controlledLoader();
    const cache = new AccessCache(loader);
    const first = cache.ready();
    pending.shift()!.reject(new Error("db down"));
    await expect(first).rejects.toThrow("db down");
    const second = cache.ready();
    pending.shift()!.resolve(new Map([["T1", tenant("T1", ["K1"])]]));
    await second;
    expect(cache.key("K1")?.tenantId).toBe("T1");
  });

  it("a tenant reload replaces that tenant's keys (a revoked key disappears)", async () => {
    const { loader, pending } = controlledLoader();
    const replaced: string[] = [];
    const cache = new AccessCache(loader, { onTenantReplaced: (id) => replaced.push(id) });
    const ready = cache.ready();
    pending.shift()!.resolve(new Map([["T1", tenant("T1", ["K1", "K2"])], ["T2", tenant("T2", ["K3"])]]));
    await ready;
    const reload = cache.tenantChanged("T1");
    pending.shift()!.resolve(tenant("T1", ["K2"]));
    await reload;
    expect(cache.key("K1")).toBeUndefined();
    expect(cache.key("K2")).toBeDefined();
    expect(cache.key("K3")).toBeDefined();
    expect(replaced).toContain("T1");
  });

  it("an older full refresh finishing after a newer tenant reload does not overwrite it", async () => {
    const { loader, pending } = controlledLoader();
    const cache = new AccessCache(loader);
    const ready = cache.ready();
    pending.shift()!.resolve(new Map([["T1", tenant("T1", ["K1"], "v1")]]));
    await ready;
    const full = cache.refreshAll(); // started first: sees the old data
    const change = cache.tenantChanged("T1"); // started second: sees the new data
    await tick();
    const [fullLoad, tenantLoad] = [pending.shift()!, pending.shift()!];
    tenantLoad.resolve(tenant("T1", ["K2"], "v2"));
    await change;
    fullLoad.resolve(new Map([["T1", tenant("T1", ["K1"], "v1")]]));
    await full;
    expect(cache.tenant("T1")?.name).toBe("v2");
    expect(cache.key("K1")).toBeUndefined();
    expect(cache.key("K2")).toBeDefined();
  });

  it("a failed reload keeps the last data and reports the error", async () => {
    const { loader, pending } = controlledLoader();
    const reloads: string[] = [];
    const cache = new AccessCache(loader, { onReload: (kind, outcome) => reloads.push(`${kind}:${outcome}`) });
    const ready = cache.ready();
    pending.shift()!.resolve(new Map([["T1", tenant("T1", ["K1"])]]));
    await ready;
    const change = cache.tenantChanged("T1");
    pending.shift()!.reject(new Error("db down"));
    await change;
    const full = cache.refreshAll();
    pending.shift()!.reject(new Error("db down"));
    await expect(full).rejects.toThrow();
    expect(cache.key("K1")).toBeDefined();
    expect(reloads).toEqual(["full:ok", "tenant:error", "full:error"]);
  });

  it("a deleted tenant disappears on the next full refresh", async () => {
    const { loader, pending } = controlledLoader();
    const cache = new AccessCache(loader);
    const ready = cache.ready();
    pending.shift()!.resolve(new Map([["T1", tenant("T1", ["K1"])]]));
    await ready;
    const full = cache.refreshAll();
    pending.shift()!.resolve(new Map());
    await full;
    expect(cache.tenant("T1")).toBeUndefined();
    expect(cache.key("K1")).toBeUndefined();
  });
});
