/**
 * The audit log's pages through GET /api/admin/audit (called directly, no server), against the test
 * database and the shared Redis under this file's own prefix: filters by operator, action and time,
 * key names, ids and pages. Reverts: auditRevert.int.test.ts. Cleans up as
 * test/support/auditRoutesBed.ts says.
 */
import { describe, expect, it } from "vitest";
import { A, auditRoutesBed, B } from "@/test/support/auditRoutesBed";

const { routes, admin, newTenant, newKey, putTenantRules, auditOf } = await auditRoutesBed("auditlog");
const { audit } = routes;

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
    expect(all.map((e: { action: string }) => e.action)).toEqual([
      "rules.replace",
      "rules.replace",
      "rules.replace",
      "key.create",
      "tenant.create",
    ]);
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
