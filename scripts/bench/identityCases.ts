/**
 * Sluice in front of any API (issue 29, "Speed and scale"), `BENCH_ONLY=identity`: what a request
 * on a tenant's host costs by its caller, against the same bare ceilings and the Sluice-key path,
 * one Sluice instance, 100 connections, each server in its own process, loaded one after another.
 * Rows (subject `identity`), in each round:
 * - `ceiling-node-redis` and `bare-proxy`: the data plane's ceilings (dataplane/baselineServers.ts);
 * - `sluice-echo` and `sluice-gateway`: today's `/api/v1` paths with a Sluice key (GET
 *   /api/v1/echo; GET /api/v1/orders/1 through the gateway to the same upstream as the proxy);
 * - `host-key`: GET /orders/1 with `Host` a tenant's host (forwarded as sent to the upstream), the
 *   same Sluice key;
 * - `host-jwt-es256`, `host-jwt-rs256`: the same on the same host with a JWT of the tenant's
 *   identity provider (inline JWKS, iss and aud checked), each connection sending one token, as a
 *   client holding its token does: Sluice's verified-token cache (bounded, keyed by the token's
 *   SHA-256: lib/policy/identity/jwtVerifier.ts) answers all but the first;
 * - `host-jwt-es256-uncached`, `host-jwt-rs256-uncached`: a different token on every request
 *   (identity/benchTokens.ts), so every request pays jose's signature check;
 * - `host-anonymous`: GET /orders/1 with no credential on a second tenant's host that admits
 *   anonymous callers, limited per IP;
 * - `host-lookup-10-hosts`, `host-lookup-10000-hosts`: identity/hostLookup.ts (pure CPU);
 * - `caller-*`: what finding each kind of caller costs by itself (identity/callerCost.ts, pure CPU).
 * Every caller meets one generous token_bucket rule (1e9 per 60 s: `key` scope for keys and JWT
 * subjects, `ip` scope for the anonymous tenant), so each request makes one Redis call. Each row
 * gives the server's CPU per request (`CPU µs/op`, /proc/<pid>/stat): the goals compare those
 * (goals.ts). Needs a production build (built once if missing) and the bench database.
 */
import { adminClient, deleteTenants } from "../../test/support/adminClient";
import { startSluice, type SluiceServer } from "../../test/support/sluiceServer";
import { BENCH_DATABASE_URL, type BenchContext } from "./context";
import { measureCeiling, measureServer, startBaseline, type Load } from "./dataplane/serverLoad";
import { ADMIN_TOKEN, createBenchKey, prepareServers, serverEnv } from "./httpSetup";
import { BENCH_ALGS, benchJwtSettings, cyclingHeader, reusedToken, tokenPool } from "./identity/benchTokens";
import { callerCostRows } from "./identity/callerCost";
import { hostLookupRows } from "./identity/hostLookup";

const SUBJECT = "identity";
const generous = { algorithm: "token_bucket", limit: 1_000_000_000, windowMs: 60_000 } as const;

async function put(admin: ReturnType<typeof adminClient>, path: string, body: unknown): Promise<void> {
  const answer = await admin.request("PUT", path, body);
  if (answer.status !== 200)
    throw new Error(`bench: PUT ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
}

export async function identityCases(ctx: BenchContext): Promise<void> {
  for (const row of [...(await hostLookupRows(ctx)), ...(await callerCostRows(ctx))]) {
    ctx.rows.push(row);
    console.log(`  ${row.subject} ${row.case}: ${row.opsPerSec} calls/s, ${row.nodeCpuUsPerOp} µs CPU per call`);
  }
  prepareServers();
  const tenants: string[] = [];
  const upstream = await startBaseline("upstream", {});
  let sluice: SluiceServer | undefined;
  try {
    await measureCeiling(ctx, SUBJECT);

    sluice = await startSluice({ env: serverEnv(ctx, SUBJECT) });
    const admin = adminClient(sluice.url, ADMIN_TOKEN);
    const keyed = await createBenchKey(sluice, SUBJECT);
    tenants.push(keyed.tenantId);
    const anonymous = await admin.createTenant(`bench-anonymous-${process.pid}`);
    tenants.push(anonymous.id);
    const [keyHost, anonHost] = [`orders-${process.pid}.bench.example.com`, `public-${process.pid}.bench.example.com`];
    await put(admin, `/api/admin/tenants/${keyed.tenantId}/upstream`, { url: upstream.url });
    await put(admin, `/api/admin/tenants/${keyed.tenantId}/identity`, {
      hosts: [keyHost],
      apiKeys: true,
      jwt: await benchJwtSettings(),
    });
    await admin.putTenantRules(anonymous.id, [{ name: "per-ip", scope: "ip", ...generous }]);
    await put(admin, `/api/admin/tenants/${anonymous.id}/upstream`, { url: upstream.url });
    await put(admin, `/api/admin/tenants/${anonymous.id}/identity`, {
      hosts: [anonHost],
      apiKeys: false,
      anonymous: true,
    });

    const pid = sluice.pid;
    const row = (name: string, l: Load, note: string) =>
      measureServer(ctx, SUBJECT, name, l, note, { pid, sluice: true });
    const key = { authorization: `Bearer ${keyed.key}` };
    const onHost = { url: `${sluice.url}/orders/1`, headers: { host: keyHost } };

    await row(
      "sluice-echo",
      { url: `${sluice.url}/api/v1/echo`, headers: key },
      "GET /api/v1/echo, Sluice key, 1 token_bucket rule",
    );
    const proxy = await startBaseline("proxy", { UPSTREAM_URL: upstream.url });
    try {
      await measureServer(
        ctx,
        SUBJECT,
        "bare-proxy",
        { url: `${proxy.url}/orders/1` },
        "bare node:http reverse proxy (keep-alive agent) to a local upstream",
        { pid: proxy.pid },
      );
    } finally {
      await proxy.stop();
    }
    await row(
      "sluice-gateway",
      { url: `${sluice.url}/api/v1/orders/1`, headers: key },
      "GET /api/v1/orders/1 through the gateway, Sluice key, 1 rule",
    );
    await row(
      "host-key",
      { ...onHost, headers: { ...onHost.headers, ...key } },
      "GET /orders/1 on a tenant host, Sluice key, 1 rule",
    );
    for (const alg of BENCH_ALGS) {
      const token = await reusedToken(alg);
      await row(
        `host-jwt-${alg.toLowerCase()}`,
        { ...onHost, headers: { ...onHost.headers, authorization: `Bearer ${token}` } },
        `GET /orders/1 on a tenant host, one ${alg} JWT on every request (verified-token cache), 1 rule on its subject`,
      );
    }
    await row(
      "host-anonymous",
      { url: `${sluice.url}/orders/1`, headers: { host: anonHost } },
      "GET /orders/1 on a tenant host admitting anonymous callers, no credential, 1 per-IP rule",
    );
    for (const alg of BENCH_ALGS) {
      const pool = await tokenPool(alg);
      await row(
        `host-jwt-${alg.toLowerCase()}-uncached`,
        { ...onHost, requests: [{ setupRequest: cyclingHeader("authorization", "Bearer ", pool) }] },
        `GET /orders/1 on a tenant host, a different ${alg} JWT on every request (${pool.length.toLocaleString("en")} in turn: never cached), 1 rule on the subject`,
      );
    }
  } finally {
    await sluice?.stop();
    await upstream.stop();
    await deleteTenants(BENCH_DATABASE_URL, tenants);
  }
}
