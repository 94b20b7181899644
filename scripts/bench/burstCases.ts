/**
 * Exactness under load (`BENCH_ONLY=burst`, issue 15 point 14): two freshly started production
 * servers on one Redis, one `sliding_log` rule of 12 per hour with failMode `open` (the default:
 * a decision that misses its deadline is admitted), 60 requests sent at once, alternating between
 * the servers. The first burst hits instances that just reported ready (what the warm-up is for);
 * then BURST_ROUNDS more, each on a fresh key. Per round: requests admitted (goal: exactly 12)
 * and the servers' fail-mode activations (goal: 0; from /api/metrics). Run it with the machine
 * loaded (e.g. two `node -e 'for(;;){}'`) to see the deadline under CPU starvation.
 */
import { adminClient, apiCall } from "../../test/support/adminClient";
import { startSluice, type SluiceServer } from "../../test/support/sluiceServer";
import type { BenchContext } from "./context";
import { describeCounts, difference, failModeCounts, sum, type FailModeCounts } from "./failModeCounts";
import { ADMIN_TOKEN, deleteBenchTenant, prepareServers, serverEnv, type BenchKey } from "./httpSetup";
import type { BurstReport } from "./types";

const LIMIT = 12;
const REQUESTS = 60;
const BURST_ROUNDS = 5;

async function total(servers: SluiceServer[]): Promise<FailModeCounts> {
  return sum(await Promise.all(servers.map(failModeCounts)));
}

export async function burstCases(ctx: BenchContext): Promise<void> {
  prepareServers();
  const env = serverEnv(ctx, "burst");
  const servers: SluiceServer[] = [];
  let tenant: BenchKey | undefined;
  try {
    servers.push(await startSluice({ env }), await startSluice({ env }));
    const admin = adminClient(servers[0]!.url, ADMIN_TOKEN);
    const created = await admin.createTenant(`bench-burst-${process.pid}`);
    tenant = { tenantId: created.id, key: "" };
    await admin.putTenantRules(created.id, [
      {
        name: "burst",
        algorithm: "sliding_log",
        limit: LIMIT,
        windowMs: 3_600_000,
        failMode: "open",
        match: { path: "/api/v1/echo" },
      },
    ]);
    const keys: string[] = [];
    for (let i = 0; i <= BURST_ROUNDS; i++) keys.push((await admin.createKey(created.id, `burst ${i}`)).key);
    // Each instance must know every key before the first burst (change notices take a few ms); the
    // probe path matches no rule, so it charges nothing (404 once the key is known).
    for (const server of servers) {
      for (const key of keys) {
        while ((await apiCall(server.url, "/api/v1/probe-key", { key })).status === 401)
          await new Promise((r) => setTimeout(r, 50));
      }
    }
    const rounds: BurstReport["rounds"] = [];
    for (let round = 0; round <= BURST_ROUNDS; round++) {
      const before = await total(servers);
      const answers = await Promise.all(
        Array.from({ length: REQUESTS }, (_, i) => apiCall(servers[i % 2]!.url, "/api/v1/echo", { key: keys[round]! })),
      );
      const failModes = difference(await total(servers), before);
      const admitted = answers.filter((a) => a.status === 200).length;
      const unavailable = answers.filter((a) => a.status === 503).length;
      rounds.push({
        round: round === 0 ? "first (fresh instances)" : `round ${round}`,
        admitted,
        unavailable,
        failModeActivations: failModes.total,
        redisErrors: failModes.redisErrors,
      });
      console.log(
        `  burst ${rounds.at(-1)!.round}: ${REQUESTS} requests, limit ${LIMIT}: admitted ${admitted}, 503 ${unavailable}, fail-mode activations ${describeCounts(failModes)}`,
      );
    }
    ctx.burst = { limit: LIMIT, requests: REQUESTS, rounds };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await deleteBenchTenant(tenant);
  }
}
