/**
 * The audit log's reverts through POST /api/admin/audit/{auditId}/revert (called directly, no
 * server), against the test database and the shared Redis under this file's own prefix. A revert is
 * checked where it matters: the rules the API answers, the rules this instance enforces (the change
 * was announced), a key's requests, and the audit trail (actor, before and after, revertOf). The
 * log's pages: auditLog.int.test.ts. Cleans up as test/support/auditRoutesBed.ts says.
 */
import { describe, expect, it } from "vitest";
import { A, auditRoutesBed, B } from "@/test/support/auditRoutesBed";
import { viewerSession } from "@/test/support/viewerSession";

const {
  routes,
  db,
  operatorIds,
  admin,
  newTenant,
  newKey,
  putTenantRules,
  getTenantRules,
  auditOf,
  latest,
  revertOf,
  callEcho,
  enforcedFor,
} = await auditRoutesBed("revert");
const { key, keyRules, auditRevert: revert, login } = routes;

describe("POST /api/admin/audit/{auditId}/revert: rules", () => {
  it("restores the before list as a new audited change, in force here at once", async () => {
    const tenantId = await newTenant();
    const k = await newKey(tenantId);
    const a = (await putTenantRules(tenantId, A)).body;
    const b = (await putTenantRules(tenantId, B)).body;
    const change = await latest(tenantId, "rules.replace");
    expect(change.after).toEqual(b);
    expect(enforcedFor(k.id)).toEqual([
      ["per-key", 50],
      ["per-ip", 7],
    ]);

    const res = await revertOf(change.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      actor: "token",
      action: "rules.replace.revert",
      target: `tenant:${tenantId}`,
      tenantId,
      revertOf: change.id,
      revertible: true,
      before: b,
      after: a,
    });
    expect(await getTenantRules(tenantId)).toEqual(a);
    expect(await getTenantRules(tenantId)).toEqual(change.before);
    expect(enforcedFor(k.id)).toEqual([["per-key", 5]]);

    const [newest] = await auditOf(tenantId);
    // The list adds the name of a key target (none here: the target is the tenant) and who reverted.
    expect(newest).toEqual({ ...res.body, targetName: null, revertedBy: null });
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
    // The list marks the change as reverted by its latest revert still in force.
    const listed = (await auditOf(tenantId)).find((e: { id: string }) => e.id === change.id);
    expect(listed?.revertedBy).toBe(again.body.id);
    expect(await getTenantRules(tenantId)).toEqual(a);
    const undo = await revertOf(first.body.id);
    expect(undo.status).toBe(200);
    expect(undo.body).toMatchObject({ action: "rules.replace.revert", revertOf: first.body.id, before: a, after: b });
    expect(await getTenantRules(tenantId)).toEqual(b);
    // Undoing the first revert leaves the second in force: still marked, by the second.
    const marked = (await auditOf(tenantId)).find((e: { id: string }) => e.id === change.id);
    expect(marked?.revertedBy).toBe(again.body.id);
    // The first revert, undone, is no longer marked as in force for anything; it is itself reverted.
    expect((await auditOf(tenantId)).find((e: { id: string }) => e.id === first.body.id)?.revertedBy).toBe(
      undo.body.id,
    );
  });

  it("a key's overrides: restored through the key rule schema; 409 once the key is revoked", async () => {
    const tenantId = await newTenant();
    const k = await newKey(tenantId);
    await putTenantRules(tenantId, A);
    await admin(keyRules, "PUT", `/keys/${k.id}/rules`, { keyId: k.id }, [
      { name: "per-key", limit: 99, windowMs: 60_000 },
    ]);
    expect(enforcedFor(k.id)).toEqual([["per-key", 99]]);
    const change = await latest(tenantId, "rules.replace");
    const res = await revertOf(change.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      target: `key:${k.id}`,
      before: [expect.objectContaining({ limit: 99 })],
      after: [],
    });
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
      data: {
        actor: "token",
        action: "rules.replace",
        target: `tenant:${tenantId}`,
        tenantId,
        before: [{ name: "Not Valid", limit: 0, windowMs: 1 }],
        after: a,
      },
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
      expect(res.body.detail).toMatch(
        /a revoked key stays revoked, since its secret may have leaked; nothing was re-created\. Create a new key/,
      );
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
    const forged = await db.getDb().auditEvent.create({
      data: { actor: "token", action: "rules.replace", target: "key:ZZZZZZZZ", tenantId, before: [], after: [] },
    });
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
