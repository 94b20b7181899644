/**
 * A Redis Cluster master killed under traffic from two built servers (3 masters + 3 replicas
 * started here on loopback ports). The killed master serves both the tenant under test and the
 * change channel's slot, so the instances' change subscriptions die with it.
 *
 * While its replica takes over, every rule's failMode holds (open: 200; closed: 503 problem+json
 * with Retry-After; local: 200 from the instance's own limiter); decisions are exact again within
 * 10 s of the kill; no server crashes, no rule is lost, the logs stay quiet; and a rule change made
 * through either instance is in force on the other within 1 s after the failover.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { SUBSCRIBER_CONNECTION_NAME } from "@/lib/policy/changes/clusterSubscription";
import { adminClient, apiCall, type CreatedKey } from "@/test/support/adminClient";
import { startClusterBed, type BedTenant, type ClusterBed } from "@/test/support/clusterBed";
import { withRedis } from "@/test/support/redisServer";
import { msUntil, sleep, waitUntil } from "@/test/support/sluiceEnv";
import type { SluiceServer } from "@/test/support/sluiceServer";

const HOUR_MS = 3_600_000;
const RECOVERY_LIMIT_MS = 10_000;
const PROPAGATION_LIMIT_MS = 1_000;
const PROBE_LIMIT = 5;
let bed: ClusterBed;

beforeAll(async () => {
  bed = await startClusterBed("cluster-failover", { SLUICE_REDIS_TIMEOUT_MS: "1000" });
});

afterAll(async () => {
  await bed?.stop();
});

const ruleFor = (failMode: "open" | "closed" | "local"): RuleInput => ({
  name: failMode,
  algorithm: "sliding_window",
  limit: 1_000_000,
  windowMs: 60_000,
  failMode,
  match: { path: `/api/v1/echo/${failMode}` },
});
const PROBE_RULE: RuleInput = {
  name: "probe",
  scope: "identifier",
  algorithm: "sliding_log",
  limit: PROBE_LIMIT,
  windowMs: HOUR_MS,
  failMode: "closed",
};

interface Sent {
  tenant: string;
  path: string;
  at: number;
  status: number;
  retryAfter: string | null;
  contentType: string | null;
}

/** Sends requests one after another on each (server, path) until `stop()`; records every answer. */
function traffic(routes: { server: SluiceServer; tenant: string; key: CreatedKey; path: string }[]) {
  const sent: Sent[] = [];
  let running = true;
  const loops = routes.map(async ({ server, tenant, key, path }) => {
    while (running) {
      const at = performance.now();
      const r = await apiCall(server.url, path, { key: key.key });
      sent.push({
        tenant,
        path,
        at,
        status: r.status,
        retryAfter: r.headers.get("retry-after"),
        contentType: r.headers.get("content-type"),
      });
    }
  });
  return {
    sent,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

let probeCount = 0;
/** 2 × limit concurrent checks of a fresh identifier over both servers: exact when `limit` are allowed and the rest refused (none 503). */
async function probeIsExact(key: CreatedKey): Promise<boolean> {
  const identifier = `probe-${probeCount++}`;
  const answers = await Promise.all(
    Array.from({ length: 2 * PROBE_LIMIT }, (_, i) =>
      apiCall((i % 2 === 0 ? bed.a : bed.b).url, "/api/v1/check", {
        method: "POST",
        key: key.key,
        body: { identifier, rule: "probe" },
      }),
    ),
  );
  if (answers.some((r) => r.status !== 200)) return false;
  return answers.filter((r) => (r.body as { allowed: boolean }).allowed).length === PROBE_LIMIT;
}

/** Connections of Sluice's change subscription on the node at `port`. */
async function subscribersOn(port: number): Promise<number> {
  const list = await withRedis(port, (r) => r.client("LIST") as Promise<string>);
  return list.split("\n").filter((line) => line.includes(`name=${SUBSCRIBER_CONNECTION_NAME} `)).length;
}

async function metric(server: SluiceServer, line: RegExp): Promise<number> {
  const text = await (await fetch(`${server.url}/api/metrics`)).text();
  return text
    .split("\n")
    .filter((l) => line.test(l))
    .reduce((sum, l) => sum + Number(l.split(" ").pop()), 0);
}

const redisLogLines = (server: SluiceServer) =>
  server
    .log()
    .split("\n")
    .filter((l) => l.includes("[sluice]") && /redis/i.test(l));

describe("a Cluster master killed under traffic", () => {
  let victim: BedTenant;
  let other: BedTenant;
  let master: number;

  it("has both instances' change subscriptions on the master it will kill", async () => {
    master = await bed.cluster.slotOwnerPort(`${bed.env.prefix}changes`);
    victim = await bed.tenant(
      [ruleFor("open"), ruleFor("closed"), ruleFor("local"), PROBE_RULE],
      (owner) => owner === master,
    );
    other = await bed.tenant([ruleFor("closed")], (owner) => owner !== master);
    // Both instances have served requests, so both have subscribed (their services start lazily).
    await waitUntil(
      async () => (await subscribersOn(master)) === 2,
      10_000,
      "both subscriptions on the channel's master",
    );
    expect(await probeIsExact(victim.key)).toBe(true);
  });

  it("keeps each fail mode, is exact again within 10 s, and loses nothing", async () => {
    const heapBefore = await metric(bed.a, /^sluice_process_nodejs_heap_size_used_bytes /);
    const logLinesBefore = [redisLogLines(bed.a).length, redisLogLines(bed.b).length];
    const routes = [bed.a, bed.b].flatMap((server) => [
      ...(["open", "closed", "local"] as const).map((mode) => ({
        server,
        tenant: "victim",
        key: victim.key,
        path: `/api/v1/echo/${mode}`,
      })),
      { server, tenant: "other", key: other.key, path: "/api/v1/echo/closed" },
    ]);
    const load = traffic(routes);
    await sleep(500); // traffic under way before the kill
    await bed.cluster.killMaster(master);
    const killedAt = performance.now();

    const recoveredMs = await msUntil(killedAt, () => probeIsExact(victim.key), 3 * RECOVERY_LIMIT_MS);
    // Stays exact: three more probes in a row.
    for (let i = 0; i < 3; i++) expect(await probeIsExact(victim.key)).toBe(true);
    const recoveredAt = killedAt + recoveredMs;
    await sleep(1_000);
    await load.stop();
    await bed.cluster.waitForFailover(master, 10_000);

    const of = (tenant: string, mode: string) =>
      load.sent.filter((s) => s.tenant === tenant && s.path.endsWith(`/${mode}`));
    const statuses = (sent: Sent[]) => [...new Set(sent.map((s) => s.status))].sort();
    const during = (sent: Sent[]) => sent.filter((s) => s.at >= killedAt && s.at < recoveredAt);
    const closed503 = of("victim", "closed").filter((s) => s.status === 503);
    console.info(
      `[failover] exact again ${Math.round(recoveredMs)} ms after the kill; requests during the outage: ` +
        `open ${during(of("victim", "open")).length}, closed ${during(of("victim", "closed")).length} (${closed503.length} × 503), ` +
        `local ${during(of("victim", "local")).length}; other master's closed rule: ${of("other", "closed").filter((s) => s.status === 503).length} × 503 of ${of("other", "closed").length}`,
    );
    expect(recoveredMs).toBeLessThan(RECOVERY_LIMIT_MS);
    expect(during(of("victim", "open")).length).toBeGreaterThan(0);
    expect(statuses(of("victim", "open"))).toEqual([200]);
    expect(statuses(of("victim", "local"))).toEqual([200]);
    expect(statuses(of("victim", "closed"))).toEqual([200, 503]);
    for (const s of closed503) {
      expect(s.contentType).toMatch(/^application\/problem\+json/);
      expect(Number(s.retryAfter)).toBeGreaterThan(0);
    }
    // Once exact again, closed rules answer normally (a second of margin for requests in flight).
    expect(statuses(of("victim", "closed").filter((s) => s.at > recoveredAt + 1_000))).toEqual([200]);
    expect(statuses(of("other", "closed"))).toEqual(expect.arrayContaining([200]));
    expect(
      (await metric(bed.a, /^sluice_fail_mode_activations_total\{mode="local"\}/)) +
        (await metric(bed.b, /^sluice_fail_mode_activations_total\{mode="local"\}/)),
    ).toBeGreaterThan(0);

    // No crash, no rule lost: both servers answer every rule of the tenant with its policy.
    for (const server of [bed.a, bed.b]) {
      for (const mode of ["open", "closed", "local"]) {
        const r = await apiCall(server.url, `/api/v1/echo/${mode}`, { key: victim.key.key });
        expect(r.status).toBe(200);
        expect(r.headers.get("ratelimit-policy")).toBe(`"${mode}";q=1000000;w=60`);
      }
    }
    // Quiet logs: an outage is logged when it starts and ends, not once per request or retry.
    const newLines = [redisLogLines(bed.a).slice(logLinesBefore[0]), redisLogLines(bed.b).slice(logLinesBefore[1])];
    const logLines = newLines.map((lines) => lines.length);
    const heapAfter = await metric(bed.a, /^sluice_process_nodejs_heap_size_used_bytes /);
    console.info(
      `[failover] redis log lines since the kill: A ${logLines[0]}, B ${logLines[1]}; heap of A ${Math.round(heapBefore / 1e6)} → ${Math.round(heapAfter / 1e6)} MB\n${newLines.flat().join("\n")}`,
    );
    expect(Math.max(...logLines)).toBeLessThanOrEqual(10);
    // The node's outage is logged, once per client (decisions, monitoring), not once per retry.
    for (const lines of newLines) {
      const logged = lines.filter((l) => l.includes(`node 127.0.0.1:${master} unavailable`)).length;
      expect(logged).toBeGreaterThanOrEqual(1);
      expect(logged).toBeLessThanOrEqual(2);
    }
    expect(heapAfter - heapBefore).toBeLessThan(100e6);
  });

  it("after the failover, a rule change through either instance is in force on the other within 1 s", async () => {
    const newMaster = await bed.cluster.slotOwnerPort(`${bed.env.prefix}changes`);
    expect(newMaster).not.toBe(master);
    const rule = (limit: number): RuleInput => ({ ...ruleFor("open"), limit });
    const policy = (limit: number) => `"open";q=${limit};w=60`;
    const adminB = adminClient(bed.b.url, bed.env.adminToken);
    for (const [admin, reader, limit] of [
      [bed.admin, bed.b, 77],
      [adminB, bed.a, 78],
    ] as const) {
      await admin.putTenantRules(victim.tenantId, [rule(limit), ruleFor("closed"), ruleFor("local"), PROBE_RULE]);
      const changedAt = performance.now();
      const elapsed = await msUntil(
        changedAt,
        async () =>
          (await apiCall(reader.url, "/api/v1/echo/open", { key: victim.key.key })).headers.get("ratelimit-policy") ===
          policy(limit),
        10 * PROPAGATION_LIMIT_MS,
      );
      console.info(`[failover] rule change seen by the other instance after ${Math.round(elapsed)} ms`);
      expect(elapsed).toBeLessThan(PROPAGATION_LIMIT_MS);
    }
    expect(await subscribersOn(newMaster)).toBe(2);
  });

  it("logs no CROSSSLOT error on either instance", () => {
    expect(bed.a.log()).not.toMatch(/CROSSSLOT/i);
    expect(bed.b.log()).not.toMatch(/CROSSSLOT/i);
  });
});
