/**
 * Envoy's rate limit service in the production server (`npm start`, scripts/server.mjs): with
 * SLUICE_GRPC_PORT set the instance serves ShouldRateLimit and grpc.health.v1 from the bundled data
 * plane (its .proto files copied beside the bundle), with rules written through the admin API, and
 * stops cleanly on SIGTERM together with the HTTP server; its calls show in the monitoring API's hot
 * descriptors within the recorder's flush. Needs `npm run build`, and a database
 * migrated with 20261227020000_rule_descriptor.
 */
import { credentials, type Client, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rlsProto } from "@/lib/dataplane/envoy/rlsProto";
import { adminClient, deleteTenants, type AdminClient } from "@/test/support/adminClient";
import { freePort } from "@/test/support/freePort";
import { cleanupRedis, sluiceEnv, TEST_DATABASE_URL, waitUntil } from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";

const shared = sluiceEnv("http-envoy");
let server: SluiceServer;
let admin: AdminClient;
let grpcPort: number;
const created: string[] = [];

type Unary = (request: unknown, callback: (error: ServiceError | null, response: unknown) => void) => void;
interface Answer {
  error?: ServiceError;
  response?: { status?: string; overall_code?: string };
}
function unary(client: Client, method: string, request: unknown): Promise<Answer> {
  return new Promise((resolve) =>
    (client as unknown as Record<string, Unary>)[method]!.call(client, request, (error, response) =>
      resolve(error ? { error } : { response: response as Answer["response"] }),
    ),
  );
}

beforeAll(async () => {
  grpcPort = await freePort();
  server = await startSluice({ env: { ...shared.env, SLUICE_GRPC_PORT: String(grpcPort) } });
  admin = adminClient(server.url, shared.adminToken);
});

afterAll(async () => {
  await server?.stop();
  await deleteTenants(TEST_DATABASE_URL, created);
  await cleanupRedis(shared.prefix);
});

describe("npm start with SLUICE_GRPC_PORT", () => {
  it("serves ShouldRateLimit with the tenant's descriptor rules, and health SERVING", async () => {
    const tenant = await admin.createTenant();
    created.push(tenant.id);
    await admin.putTenantRules(tenant.id, [
      {
        name: "per-address",
        scope: "descriptor",
        algorithm: "fixed_window",
        limit: 2,
        windowMs: 60_000,
        match: { descriptor: [{ key: "remote_address" }] },
      },
    ]);
    const target = `127.0.0.1:${grpcPort}`;
    const rls = new (rlsProto().RateLimitService)(target, credentials.createInsecure());
    const health = new (rlsProto().Health)(target, credentials.createInsecure());
    try {
      expect((await unary(health, "Check", { service: "" })).response?.status).toBe("SERVING");
      const call = () =>
        unary(rls, "ShouldRateLimit", {
          domain: tenant.id,
          descriptors: [{ entries: [{ key: "remote_address", value: "203.0.113.5" }] }],
        });
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await call()).response?.overall_code);
      expect(codes).toEqual(["OK", "OK", "OVER_LIMIT"]);
    } finally {
      rls.close();
      health.close();
    }
    expect(server.log()).toContain(`Envoy's rate limit service on 127.0.0.1:${grpcPort}`);

    // The calls show as the tenant's hot descriptors once the recorder has flushed (every 1 s).
    type Row = { rule: { name: string }; value: string; requests: number; refused: number };
    let rows: Row[] = [];
    await waitUntil(
      async () => {
        const res = await admin.request("GET", `/api/admin/monitoring/hot-descriptors?tenantId=${tenant.id}`);
        rows = res.status === 200 ? (res.body as { descriptors: Row[] }).descriptors : [];
        return rows.length > 0 && rows[0]!.requests === 3;
      },
      15_000,
      "hot descriptors",
    );
    expect(rows.map((row) => [row.rule.name, row.value, row.requests, row.refused])).toEqual([
      ["per-address", "203.0.113.5", 3, 1],
    ]);
  });
});
