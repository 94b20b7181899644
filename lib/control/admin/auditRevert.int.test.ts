/**
 * The audit log's pages and reverts through the route handlers (called directly, no server),
 * against the test database and the shared Redis under this file's own prefix. A revert is
 * checked where it matters: the rules the API answers, the rules this instance enforces (the
 * change was announced), a key's requests, and the audit trail (actor, before and after, revertOf).
 * Cleans up its tenants (keys, rules and refs cascade), their audit events, its operators, and its
 * Redis prefix.
 */
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { deleteTenants } from "@/test/support/adminClient";
import { callRoute, type RouteAnswer } from "@/test/support/routeCall";
import { TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { loadRoutes, routeTestEnv, type Routes } from "@/test/support/routeTestEnv";
import { viewerSession } from "@/test/support/viewerSession";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";

const { auth, close } = routeTestEnv("revert");
// Loaded after the environment is set: config() reads it once, on first use.
const { tenants, tenantKeys: keys, key, tenantRules, keyRules, audit, auditRevert: revert, echo, login } =
  await loadRoutes("tenants", "tenantKeys", "key", "tenantRules", "keyRules", "audit", "auditRevert", "echo", "login");
const runtime = await import("@/lib/runtime/services");
const db = await import("@/lib/db/client");
const created: string[] = [];
const operatorIds: string[] = [];

afterAll(async () => {
  await deleteTenants(TEST_DATABASE_URL, created);
  await db.getDb().operator.deleteMany({ where: { id: { in: operatorIds } } });
  await close();
});

const admin = (routes: Routes, method: string, path: string, params: Record<string, string>, body?: unknown, headers: Record<string, string> = auth): Promise<RouteAnswer> =>
  callRoute(routes[method], { method, path: `/api/admin${path}`, params, body, headers });

async function newTenant(): Promise<string> {
  const res = await admin(tenants, "POST", "/tenants", {}, { name: `revert-${randomBytes(4).toString("hex")}` });
  expect(res.status).toBe(201);
  created.push(res.body.id);
  return res.body.id as string;
}

async function newKey(tenantId: string): Promise<{ id: string; key: string }> {
  const res = await admin(keys, "POST", `/tenants/${tenantId}/keys`, { tenantId }, { name: "a key" });
  expect(res.status).toBe(201);
  return res.body;
}

const putTenantRules = (tenantId: string, rules: RuleInput[]) => admin(tenantRules, "PUT", `/tenants/${tenantId}/rules`, { tenantId }, rules);
const getTenantRules = async (tenantId: string) => (await admin(tenantRules, "GET", `/tenants/${tenantId}/rules`, { tenantId })).body;
const auditOf = async (tenantId: string, query = "") => (await admin(audit, "GET", `/audit?tenantId=${tenantId}${query}`, {})).body;
const revertOf = (auditId: string, headers: Record<string, string> = auth) => admin(revert, "POST", `/audit/${auditId}/revert`, { auditId }, undefined, headers);
const callEcho = (apiKey: string) => callRoute(echo.GET, { path: "/api/v1/echo", headers: { authorization: `Bearer ${apiKey}`, "x-forwarded-for": "192.0.2.50" } });

/** The newest audit event of the tenant with this action. */
async function latest(tenantId: string, action: string): Promise<{ id: string; before: unknown; after: unknown; revertible: boolean }> {
  const events = await auditOf(tenantId);
  const event = events.find((e: { action: string }) => e.action === action);
  if (!event) throw new Error(`no ${action} event`);
  return event;
}

/** Rule names and limits this instance enforces for the key (its access cache). */
const enforcedFor = (keyId: string) => runtime.services().access.key(keyId)?.rules.map((r) => [r.rule.name, r.rule.limit]);

const A: RuleInput[] = [{ name: "per-key", limit: 5, windowMs: 60_000 }];
const B: RuleInput[] = [
  { name: "per-key", limit: 50, windowMs: 60_000 },
  { name: "per-ip", scope: "ip", limit: 7, windowMs: 1_000 },
];

describe("GET /api/admin/audit: filters by operator, action and time; key names", () => {
  it("actor, action (exact or a prefix ending in a dot), from and to narrow the list; a key target carries its name", async () => {
    const tenantId = await newTenant();
    const k = await newKey(tenantId);
    await putTenantRules(tenantId, A);
    const actions = (events: { action: string }[]) => events.map((e) => e.action);
    expect(actions(await auditOf(tenantId, "&action=rules.replace"))).toEqual(["rules.replace"]);
    expect(actions(await auditOf(tenantId, "&action=key."))).toEqual(["key.create"]);
    expect(actions(await auditOf(tenantId, "&actor=token"))).toEqual(["rules.replace", "key.create", "tenant.create"]);
    expect(await auditOf(tenantId, "&actor=operator:nobody@example.com")).toEqual([]);
    expect(await auditOf(tenantId, "&from=2099-01-01")).toEqual([]);
    expect(actions(await auditOf(tenantId, "&to=2099-01-01"))).toHaveLength(3);
    const [created] = await auditOf(tenantId, "&action=key.create");
    expect(created).toMatchObject({ target: `key:${k.id}`, targetName: "a key" });
    const bad = await admin(audit, "GET", `/audit?tenantId=${tenantId}&from=yesterday`, {});
    expect(bad.status).toBe(422);
    expect(bad.body.errors.from).toEqual(["from must be a date such as 2026-11-24 or an ISO date-time"]);
  });
});

describe("GET /api/admin/audit: ids and pages", () => {
  it("every event carries its id; pages of `limit`, newest first, continued with ?before=<last id>", async () => {
    const tenantId = await newTenant();
    await newKey(tenantId);
    await putTenantRules(tenantId, A);
    await putTenantRules(tenantId, B);
    await putTenantRules(tenantId, []);
    const all = await auditOf(tenantId);
    expect(all.map((e: { action: string }) => e.action)).toEqual(["rules.replace", "rules.replace", "rules.replace", "key.create", "tenant.create"]);
    for (const event of all) expect(event.id).toMatch(/^[1-9][0-9]*$/);
    expect(all[0]).toMatchObject({ revertOf: null, revertible: true });
    expect(all[4]).toMatchObject({ revertOf: null, revertible: false });

    const pages = [];
    let cursor = "";
    for (;;) {
      const page = await auditOf(tenantId, `&limit=2${cursor}`);
      pages.push(page);
      if (page.length < 2) break;
      cursor = `&before=${page.at(-1).id}`;
    }
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(all);
  });

  it("422 naming `before` for a cursor that is no audit event", async () => {
    const res = await admin(audit, "GET", "/audit?before=999999999999999", {});
    expect(res.status).toBe(422);
    expect(res.body.errors.before).toEqual(["before must be the id of an audit event"]);
    expect((await admin(audit, "GET", "/audit?before=abc", {})).status).toBe(422);
  });
});

describe("POST /api/admin/audit/{auditId}/revert: rules", () => {
  it("restores the before list as a new audited change, in force here at once", async () => {
    const tenantId = await newTenant();
    const k = await newKey(tenantId);
    const a = (await putTenantRules(tenantId, A)).body;
    const b = (await putTenantRules(tenantId, B)).body;
    const change = await latest(tenantId, "rules.replace");
    expect(change.after).toEqual(b);
    expect(enforcedFor(k.id)).toEqual([["per-key", 50], ["per-ip", 7]]);

    const res = await revertOf(change.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ actor: "token", action: "rules.replace.revert", target: `tenant:${tenantId}`, tenantId, revertOf: change.id, revertible: true, before: b, after: a });
    expect(await getTenantRules(tenantId)).toEqual(a);
    expect(await getTenantRules(tenantId)).toEqual(change.before);
    expect(enforcedFor(k.id)).toEqual([["per-key", 5]]);

    const [newest] = await auditOf(tenantId);
    // The list adds the name of a key target (none here: the target is the tenant).
    expect(newest).toEqual({ ...res.body, targetName: null });
    expect(newest.at).toEqual(expect.any(String));
  });

  it("reverting the same event again re-applies its before list; reverting the revert restores what it replaced", async () => {
    const tenantId = await newTenant();
    const a = (await putTenantRules(tenantId, A)).body;
    const b = (await putTenantRules(tenantId, B)).body;
    const change = await latest(tenantId, "rules.replace");
    const first = await revertOf(change.id);
    expect(first.status).toBe(200);
    await putTenantRules(tenantId, []);
    const again = await revertOf(change.id);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ before: [], after: a, revertOf: change.id });
    expect(await getTenantRules(tenantId)).toEqual(a);
    const undo = await revertOf(first.body.id);
    expect(undo.status).toBe(200);
    expect(undo.body).toMatchObject({ action: "rules.replace.revert", revertOf: first.body.id, before: a, after: b });
    expect(await getTenantRules(tenantId)).toEqual(b);
  });

  it("a key's overrides: restored through the key rule schema; 409 once the key is revoked", async () => {
    const tenantId = await newTenant();
    const k = await newKey(tenantId);
    await putTenantRules(tenantId, A);
    await admin(keyRules, "PUT", `/keys/${k.id}/rules`, { keyId: k.id }, [{ name: "per-key", limit: 99, windowMs: 60_000 }]);
    expect(enforcedFor(k.id)).toEqual([["per-key", 99]]);
    const change = await latest(tenantId, "rules.replace");
    const res = await revertOf(change.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ target: `key:${k.id}`, before: [expect.objectContaining({ limit: 99 })], after: [] });
    expect((await admin(keyRules, "GET", `/keys/${k.id}/rules`, { keyId: k.id })).body).toEqual([]);
    expect(enforcedFor(k.id)).toEqual([["per-key", 5]]);

    await admin(key, "DELETE", `/keys/${k.id}`, { keyId: k.id });
    const refused = await revertOf(res.body.id);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/revoked/);
  });

  it("a stored list that no longer passes validation: 409 saying so, nothing changes", async () => {
    const tenantId = await newTenant();
    const a = (await putTenantRules(tenantId, A)).body;
    const forged = await db.getDb().auditEvent.create({
      data: { actor: "token", action: "rules.replace", target: `tenant:${tenantId}`, tenantId, before: [{ name: "Not Valid", limit: 0, windowMs: 1 }], after: a },
    });
    const eventsBefore = (await auditOf(tenantId)).length;
    const res = await revertOf(forged.id.toString());
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/no longer passes validation \(0\.name: /);
    expect(await getTenantRules(tenantId)).toEqual(a);
    expect((await auditOf(tenantId)).length).toBe(eventsBefore);
  });
});

describe("POST /api/admin/audit/{auditId}/revert: key revocation", () => {
  it("a revocation is never undone: 409 saying a revoked key stays revoked and to create a new key; the old secret stays dead, nothing is audited", async () => {
    const tenantId = await newTenant();
    const k = await newKey(tenantId);
    await admin(key, "DELETE", `/keys/${k.id}`, { keyId: k.id });
    expect((await callEcho(k.key)).status).toBe(401);
    const revocation = await latest(tenantId, "key.revoke");
    // Not offered as revertible (the dashboard shows no Revert button for it).
    expect(revocation.revertible).toBe(false);
    const eventsBefore = (await auditOf(tenantId)).length;

    for (let attempt = 0; attempt < 2; attempt++) {
      const res = await revertOf(revocation.id);
      expect(res.status).toBe(409);
      expect(res.body.detail).toMatch(/a revoked key stays revoked, since its secret may have leaked; nothing was re-created\. Create a new key/);
    }
    expect((await admin(key, "GET", `/keys/${k.id}`, { keyId: k.id })).body.revokedAt).not.toBeNull();
    expect((await callEcho(k.key)).status).toBe(401);
    expect((await auditOf(tenantId)).length).toBe(eventsBefore);
  });
});

describe("POST /api/admin/audit/{auditId}/revert: refusals", () => {
  it("409 conflict for changes that cannot be reverted, saying why", async () => {
    const tenantId = await newTenant();
    await newKey(tenantId);
    for (const [action, why] of [
      ["tenant.create", /tenants cannot be deleted/],
      ["key.create", /revoke the key instead/],
    ] as const) {
      const res = await revertOf((await latest(tenantId, action)).id);
      expect(res.status).toBe(409);
      expect(res.body.title).toBe("Conflict");
      expect(res.body.detail).toMatch(why);
    }
  });

  it("409 when the target no longer exists", async () => {
    const tenantId = await newTenant();
    const forged = await db.getDb().auditEvent.create({ data: { actor: "token", action: "rules.replace", target: "key:ZZZZZZZZ", tenantId, before: [], after: [] } });
    const res = await revertOf(forged.id.toString());
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/key:ZZZZZZZZ no longer exists/);
  });

  it("404 for an unknown or malformed id, 401 without a token, 405 for GET", async () => {
    expect((await revertOf("999999999999999")).status).toBe(404);
    expect((await revertOf("abc")).status).toBe(404);
    expect((await revertOf("1", {})).status).toBe(401);
    expect((await admin(revert, "GET", "/audit/1/revert", { auditId: "1" })).status).toBe(405);
  });

  it("a viewer gets 403 and nothing changes", async () => {
    const tenantId = await newTenant();
    const a = (await putTenantRules(tenantId, A)).body;
    await putTenantRules(tenantId, B);
    const change = await latest(tenantId, "rules.replace");
    const res = await revertOf(change.id, await viewerSession(login, operatorIds, "revert"));
    expect(res.status).toBe(403);
    expect(await getTenantRules(tenantId)).not.toEqual(a);
    expect((await auditOf(tenantId))[0].id).toBe(change.id);
  });
});
