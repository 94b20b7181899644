/**
 * One production server (`npm run build` first) runs the data plane on its main thread and Next in a
 * worker thread (scripts/server.mjs, lib/config/plane.ts). What that split must not change for the
 * people who use the instance:
 * - a change made through the admin API is in force on the data plane when the API answers (the
 *   plane link, lib/runtime/planeLink.ts), every time;
 * - one scrape of /api/metrics sees the whole instance: the data plane's counters, and the
 *   process's own figures once (a process's RSS is not counted once per thread).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, apiCall, deleteTenants, type AdminClient, type CreatedKey } from "@/test/support/adminClient";
import { metricValue } from "@/test/support/metricValue";
import { cleanupRedis, sluiceEnv, TEST_DATABASE_URL } from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";

const env = sluiceEnv("http-planes");
let server: SluiceServer;
let admin: AdminClient;
let tenantId: string;
let key: CreatedKey;

beforeAll(async () => {
  server = await startSluice({ env: env.env });
  admin = adminClient(server.url, env.adminToken);
  tenantId = (await admin.createTenant()).id;
  key = await admin.createKey(tenantId, "planes");
});

afterAll(async () => {
  await server?.stop();
  await deleteTenants(TEST_DATABASE_URL, tenantId ? [tenantId] : []);
  await cleanupRedis(env.prefix);
});

describe("the data plane and the control plane of one instance", () => {
  it("a rule change is in force on the data plane when the admin API answers, each of ten times", async () => {
    for (let limit = 101; limit <= 110; limit++) {
      await admin.putTenantRules(tenantId, [{ name: "per-key", algorithm: "token_bucket", limit, windowMs: 60_000 }]);
      const answer = await apiCall(server.url, "/api/v1/echo", { key: key.key });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("ratelimit-policy")).toBe(`"per-key";q=${limit};w=60`);
    }
  });

  it("GET /api/metrics counts the data plane's decisions, and the process's resident memory once", async () => {
    const allowed = () => metricValue(server.url, 'sluice_decisions_total{outcome="allowed"}', env.adminToken);
    const before = await allowed();
    for (let i = 0; i < 3; i++) expect((await apiCall(server.url, "/api/v1/echo", { key: key.key })).status).toBe(200);
    expect((await allowed()) - before).toBe(3);

    const text = await (
      await fetch(`${server.url}/api/metrics`, { headers: { authorization: `Bearer ${env.adminToken}` } })
    ).text();
    const rssLines = text
      .split("\n")
      .filter((line) => line.startsWith("sluice_process_process_resident_memory_bytes "));
    expect(rssLines).toHaveLength(1);
    const reported = Number(rssLines[0]!.split(" ")[1]);
    const actual = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))![1]) * 1024;
    // The same process measured a moment apart: well within half and one and a half times (twice if summed per thread).
    expect(reported / actual).toBeGreaterThan(0.5);
    expect(reported / actual).toBeLessThan(1.5);
  });
});
