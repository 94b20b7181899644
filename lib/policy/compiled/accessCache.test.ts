import { describe, expect, it } from "vitest";
import { AccessCache } from "./accessCache";
import type { AccessLoader, KeyAccess, TenantAccess } from "./accessLoader";

function tenant(id: string, keyIds: string[], name = id, expiresAtMs: Record<string, number> = {}): TenantAccess {
  const keys = new Map<string, KeyAccess>(
    keyIds.map((k) => [
      k,
      { id: k, tenantId: id, name: k, secretHash: "h", expiresAtMs: expiresAtMs[k] ?? null, overrides: [], rules: [] },
    ]),
  );
  return { id, name, rules: [], keys };
}

/** A loader whose answers the test releases one by one. */
function controlledLoader() {
  const pending: { kind: "all" | string; resolve: (v: unknown) => void; reject: (e: Error) => void }[] = [];
  const loader: AccessLoader = {
    loadAll: () =>
      new Promise((resolve, reject) => pending.push({ kind: "all", resolve: resolve as (v: unknown) => void, reject })),
    loadTenant: (id) =>
      new Promise((resolve, reject) => pending.push({ kind: id, resolve: resolve as (v: unknown) => void, reject })),
  };
  return { loader, pending };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("AccessCache", () => {
  it("ready() rejects while the first load fails, and loads again on the next call; isReady() once it resolved", async () => {
    const { loader, pending } = controlledLoader();
    const cache = new AccessCache(loader);
    const first = cache.ready();
    expect(cache.isReady()).toBe(false);
    pending.shift()!.reject(new Error("db down"));
    await expect(first).rejects.toThrow("db down");
    expect(cache.isReady()).toBe(false);
    const second = cache.ready();
    pending.shift()!.resolve(new Map([["T1", tenant("T1", ["K1"])]]));
    await second;
    expect(cache.isReady()).toBe(true);
    expect(cache.key("K1")?.tenantId).toBe("T1");
  });

  it("a tenant reload replaces that tenant's keys (a revoked key disappears)", async () => {
    const { loader, pending } = controlledLoader();
    const replaced: string[] = [];
    const cache = new AccessCache(loader, { onTenantReplaced: (id) => replaced.push(id) });
    const ready = cache.ready();
    pending.shift()!.resolve(
      new Map([
        ["T1", tenant("T1", ["K1", "K2"])],
        ["T2", tenant("T2", ["K3"])],
      ]),
    );
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
    await expect(change).rejects.toThrow("db down");
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

  it("liveKey refuses a key from its expiry instant on, by the injected clock, without a reload", async () => {
    const { loader, pending } = controlledLoader();
    let now = 1_000_000;
    const cache = new AccessCache(loader, { now: () => now });
    const ready = cache.ready();
    pending.shift()!.resolve(new Map([["T1", tenant("T1", ["K1", "K2"], "T1", { K1: 1_005_000 })]]));
    await ready;
    expect(cache.liveKey("K1")?.id).toBe("K1");
    now = 1_004_999;
    expect(cache.liveKey("K1")?.id).toBe("K1");
    now = 1_005_000;
    expect(cache.liveKey("K1")).toBeUndefined();
    // Still known (the dashboard and monitoring read it), only no longer usable; a key without expiry is unaffected.
    expect(cache.key("K1")?.id).toBe("K1");
    expect(cache.liveKey("K2")?.id).toBe("K2");
    expect(pending).toHaveLength(0);
  });

  it("an expiry moved later by a reload makes the key live again", async () => {
    const { loader, pending } = controlledLoader();
    const now = 2_000;
    const cache = new AccessCache(loader, { now: () => now });
    const ready = cache.ready();
    pending.shift()!.resolve(new Map([["T1", tenant("T1", ["K1"], "T1", { K1: 1_000 })]]));
    await ready;
    expect(cache.liveKey("K1")).toBeUndefined();
    const reload = cache.tenantChanged("T1");
    pending.shift()!.resolve(tenant("T1", ["K1"], "T1", { K1: 3_000 }));
    await reload;
    expect(cache.liveKey("K1")?.id).toBe("K1");
  });
});

describe("AccessCache host table and JWT verifiers", () => {
  const JWKS = { keys: [{ kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" }] };
  const withIdentity = (id: string, hosts: string[], jwt: Record<string, unknown> | null): TenantAccess => ({
    ...tenant(id, []),
    identity: { hosts, apiKeys: true, anonymous: false, jwt: jwt as never },
  });

  function cacheOf(state: Map<string, TenantAccess>) {
    return new AccessCache({
      loadAll: async () => new Map(state),
      loadTenant: async (id) => state.get(id) ?? null,
    });
  }

  it("finds a tenant by host in one lookup, follows a host to its new tenant, and forgets removed ones", async () => {
    const state = new Map([["A", withIdentity("A", ["a.example", "shared.example"], null)]]);
    const cache = cacheOf(state);
    expect(cache.hasHosts()).toBe(false);
    await cache.ready();
    expect(cache.hasHosts()).toBe(true);
    expect(cache.tenantOfHost("shared.example")).toBe("A");
    state.set("A", withIdentity("A", ["a.example"], null));
    state.set("B", withIdentity("B", ["shared.example"], null));
    await cache.tenantChanged("B");
    expect(cache.tenantOfHost("shared.example")).toBe("B");
    // A's reload must not take B's host away.
    await cache.tenantChanged("A");
    expect(cache.tenantOfHost("shared.example")).toBe("B");
    state.delete("B");
    await cache.tenantChanged("B");
    expect(cache.tenantOfHost("shared.example")).toBeUndefined();
    expect(cache.tenantOfHost("a.example")).toBe("A");
  });

  it("keeps a tenant's verifier across reloads with the same settings, and makes a new one when they change", async () => {
    const state = new Map([["A", withIdentity("A", [], { jwks: JWKS, subjectClaim: "sub" })]]);
    const cache = cacheOf(state);
    await cache.ready();
    const first = cache.jwtVerifier("A");
    expect(first).toBeDefined();
    state.set("A", withIdentity("A", [], { jwks: JWKS, subjectClaim: "sub" }));
    await cache.refreshAll();
    expect(cache.jwtVerifier("A")).toBe(first);
    state.set("A", withIdentity("A", [], { jwks: JWKS, subjectClaim: "user_id" }));
    await cache.tenantChanged("A");
    const second = cache.jwtVerifier("A");
    expect(second).not.toBe(first);
    state.set("A", withIdentity("A", [], null));
    await cache.tenantChanged("A");
    expect(cache.jwtVerifier("A")).toBeUndefined();
  });
});
