/**
 * Scoped API tokens on two built servers (needs `npm run build`) sharing one Postgres and one
 * Redis: a token created through instance A works on B, changes made with it on B are audited as
 * `token:<name>`, and once deleted through A it is a 401 on B within 1 s.
 */
import { afterAll, describe, expect, it } from "vitest";
import { adminClient, uniqueName } from "@/test/support/adminClient";
import { waitUntil } from "@/test/support/sluiceEnv";
import { twoServersForSuite } from "@/test/support/twoServers";

const servers = twoServersForSuite("http-tokens");
const made: string[] = [];

afterAll(async () => {
  for (const id of made) await servers.adminA.request("DELETE", `/api/admin/tokens/${id}`);
});

describe("API tokens on two instances", () => {
  it("created on A, used on B (audited as token:<name>), revoked on A: 401 on B within 1 s", async () => {
    const name = uniqueName("two");
    const created = await servers.adminA.request("POST", "/api/admin/tokens", { name, role: "admin" });
    expect(created.status).toBe(201);
    const { id, token } = created.body as { id: string; token: string };
    made.push(id);
    const onB = adminClient(servers.b.url, token);

    const tenant = await onB.request("POST", "/api/admin/tenants", { name: uniqueName("by-token") });
    expect(tenant.status).toBe(201);
    const tenantId = (tenant.body as { id: string }).id;
    servers.track(tenantId);
    const audit = await servers.adminA.request("GET", `/api/admin/audit?tenantId=${tenantId}`);
    expect((audit.body as { actor: string }[]).map((e) => e.actor)).toEqual([`token:${name}`]);

    expect((await servers.adminA.request("DELETE", `/api/admin/tokens/${id}`)).status).toBe(204);
    await waitUntil(async () => (await onB.request("GET", "/api/admin/tenants")).status === 401, 1_000, "401 on B");
  });
});
