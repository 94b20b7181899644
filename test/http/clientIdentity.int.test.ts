/**
 * Who the client is, over HTTP, against built servers (`npm run build` first): which address an
 * ip-scope rule charges (a client-sent X-Forwarded-For counts only behind SLUICE_TRUST_PROXY), and
 * requests without a valid key: 401 with WWW-Authenticate, limited per client IP by the anonymous
 * limit, exactly as ../shared/CONTRACT.md states it. Tenants and keys are made through the admin API.
 * The list form of SLUICE_TRUST_PROXY is tried from several loopback source addresses (127.0.0.2 is
 * the listed proxy; Linux routes all of 127/8 to lo).
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { adminClient, apiCall } from "@/test/support/adminClient";
import { enforcementBed, expectProblem, expectQuotaExceeded, HOUR_MS } from "@/test/support/enforcementBed";
import { awayFromWindowEdge, cleanupRedis, sluiceEnv } from "@/test/support/sluiceEnv";
import { startSluice, type SluiceServer } from "@/test/support/sluiceServer";

const ANON_LIMIT = 5;

const bed = enforcementBed("http-client", { SLUICE_ANON_LIMIT_PER_MINUTE: String(ANON_LIMIT) });
const { fixture, echo } = bed;

describe("client IP of ip-scope rules", () => {
  const ipRule: RuleInput = { name: "per-ip", scope: "ip", algorithm: "sliding_log", limit: 2, windowMs: HOUR_MS };

  it("without SLUICE_TRUST_PROXY a client-sent X-Forwarded-For does not change the counter", async () => {
    const { keys } = await fixture([ipRule]);
    const from = (ip: string) =>
      apiCall(bed.url, "/api/v1/echo", { key: keys[0]!.key, headers: { "x-forwarded-for": ip } });
    expect((await from("10.0.0.1")).headers.get("x-ratelimit-remaining")).toBe("1");
    expect((await from("10.0.0.2")).headers.get("x-ratelimit-remaining")).toBe("0");
    expectQuotaExceeded(await from("10.0.0.3"), ["per-ip"]);
    expectQuotaExceeded(await from("10.0.0.4, 10.0.0.5"), ["per-ip"]);
  });

  describe("with SLUICE_TRUST_PROXY=1", () => {
    const proxied = sluiceEnv("http-enforce-proxy", { SLUICE_TRUST_PROXY: "1" });
    let proxyServer: SluiceServer;

    beforeAll(async () => {
      proxyServer = await startSluice({ env: proxied.env });
    });

    afterAll(async () => {
      await proxyServer?.stop();
      await cleanupRedis(proxied.prefix);
    });

    it("the address the proxy appended to X-Forwarded-For is the client", async () => {
      const { keys } = await fixture([ipRule], 1, adminClient(proxyServer.url, proxied.adminToken));
      const from = (ip: string) =>
        apiCall(proxyServer.url, "/api/v1/echo", { key: keys[0]!.key, headers: { "x-forwarded-for": ip } });
      expect((await from("10.0.0.1")).headers.get("x-ratelimit-remaining")).toBe("1");
      expect((await from("10.0.0.1")).headers.get("x-ratelimit-remaining")).toBe("0");
      expectQuotaExceeded(await from("10.0.0.1"), ["per-ip"]);
      // A client cannot pick the entry: only the right-most one (the proxy's view) counts.
      expectQuotaExceeded(await from("10.0.0.9, 10.0.0.1"), ["per-ip"]);
      expect((await from("10.0.0.2")).status).toBe(200);
      expect((await from("10.0.0.1, 10.0.0.3")).headers.get("x-ratelimit-remaining")).toBe("1");
    });
  });
});

/** A GET from the local address `from` (a loopback address other than 127.0.0.1 plays a proxy or a stranger). */
function getFrom(from: string, url: string, path: string, headers: Record<string, string>) {
  const target = new URL(path, url);
  return new Promise<{ status: number; remaining: string | undefined }>((resolve, reject) => {
    const req = http.get(
      { host: target.hostname, port: target.port, path: target.pathname, localAddress: from, headers, agent: false },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode!, remaining: res.headers["x-ratelimit-remaining"]?.toString() }),
        );
      },
    );
    req.on("error", reject);
  });
}

describe("with SLUICE_TRUST_PROXY=127.0.0.2 (the proxy's address): only the listed proxy's X-Forwarded-For counts", () => {
  const ipRule: RuleInput = { name: "per-ip", scope: "ip", algorithm: "sliding_log", limit: 2, windowMs: HOUR_MS };
  const listed = sluiceEnv("http-enforce-listed", {
    SLUICE_TRUST_PROXY: "127.0.0.2",
    SLUICE_BEARER_FAILURES_PER_IP: "2",
  });
  let server: SluiceServer;

  beforeAll(async () => {
    server = await startSluice({ env: listed.env });
  });

  afterAll(async () => {
    await server?.stop();
    await cleanupRedis(listed.prefix);
  });

  it("a client that reaches the port directly is counted at its own address, whatever X-Forwarded-For it forges", async () => {
    const { keys } = await fixture([ipRule], 1, adminClient(server.url, listed.adminToken));
    const auth = { authorization: `Bearer ${keys[0]!.key}` };
    const direct = (xff: string) =>
      getFrom("127.0.0.1", server.url, "/api/v1/echo", { ...auth, "x-forwarded-for": xff });
    expect((await direct("10.0.0.1")).remaining).toBe("1");
    expect((await direct("10.0.0.2")).remaining).toBe("0");
    expect((await direct("10.0.0.3, 127.0.0.2")).status).toBe(429);

    // The listed proxy speaks for its clients: read right to left, listed addresses skipped.
    const proxied = (xff: string) =>
      getFrom("127.0.0.2", server.url, "/api/v1/echo", { ...auth, "x-forwarded-for": xff });
    expect((await proxied("10.0.0.1")).remaining).toBe("1");
    expect((await proxied("10.0.0.1")).remaining).toBe("0");
    expect((await proxied("10.0.0.1, 10.0.0.2")).remaining).toBe("1");
    expect((await proxied("10.0.0.2, 127.0.0.2")).remaining).toBe("0");
    expect((await proxied("10.0.0.9, 10.0.0.2")).status).toBe(429);
  });

  it("the control plane too: a direct client's wrong admin tokens count against its own address, not the one it forges", async () => {
    const wrong = (from: string, xff: string) =>
      getFrom(from, server.url, "/api/admin/tenants", { authorization: "Bearer wrong", "x-forwarded-for": xff });
    expect((await wrong("127.0.0.3", "10.0.0.1")).status).toBe(401);
    expect((await wrong("127.0.0.3", "10.0.0.2")).status).toBe(401);
    expect((await wrong("127.0.0.3", "10.0.0.3")).status).toBe(429);
    // Through the listed proxy, each forwarded client is its own.
    expect((await wrong("127.0.0.2", "10.0.0.4")).status).toBe(401);
    expect((await wrong("127.0.0.2", "10.0.0.5")).status).toBe(401);
  });
});

describe("requests without a valid key", () => {
  it(`get 401 with WWW-Authenticate, limited to ${ANON_LIMIT} per minute per client IP (then 429)`, async () => {
    const { keys } = await fixture([]);
    const revoked = keys[0]!;
    expect((await echo(revoked.key)).status).toBe(200);
    await bed.admin.revokeKey(revoked.id);
    // The anonymous limit is a sliding window aligned to the minute: run inside one minute.
    await awayFromWindowEdge(60_000, 15_000);

    const attempts: [string, Record<string, string>][] = [
      ["missing", {}],
      ["malformed", { authorization: "Basic dXNlcjpwYXNz" }],
      ["unknown", { authorization: `Bearer sluice_AAAAAAAA_${"A".repeat(22)}` }],
      ["revoked", { authorization: `Bearer ${revoked.key}` }],
      ["unknown x-api-key", { "x-api-key": "sluice_nope" }],
    ];
    expect(attempts).toHaveLength(ANON_LIMIT);
    for (const [i, [what, headers]] of attempts.entries()) {
      const res = await apiCall(bed.url, "/api/v1/echo", { headers });
      expectProblem(res, 401, "Unauthorized");
      expect(res.headers.get("www-authenticate"), what).toMatch(/^Bearer realm="sluice"/);
      expect(res.headers.get("x-ratelimit-remaining"), what).toBe(String(ANON_LIMIT - 1 - i));
    }
    const limited = await apiCall(bed.url, "/api/v1/echo", { headers: { authorization: `Bearer ${revoked.key}` } });
    expectQuotaExceeded(limited, ["anonymous"]);
    expect(limited.headers.get("www-authenticate")).toBeNull();
  });
});
