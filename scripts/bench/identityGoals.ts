/**
 * (j) Callers on a tenant host (issue 29, identityCases.ts), compared by the server's CPU per
 * request (`nodeCpuUsPerOp` of the rows: the server process's, /proc/<pid>/stat), which holds up
 * when the machine's speed swings:
 * - a JWT caller (ES256 and RS256, the token reused as clients do, so the verified-token cache
 *   answers) costs at most 1.5 x a Sluice key on the same host;
 * - a request routed by its host (Sluice key) and an anonymous caller cost no more than the same
 *   request through today's `/api/v1` gateway (`sluice-gateway`: same key, same upstream): today's
 *   path that, like a tenant host, forwards to an upstream (echo answers itself, so it is no match);
 * - the host-routed request reaches at least 0.6 x the bare proxy's req/s, as the gateway must;
 * - host lookup with 10,000 hosts takes at most 2 x as long as with 10 (one Map lookup: a scan
 *   would take ~1,000 x).
 * The uncached JWT rows (a new token on every request) have no goal: they say what a client that
 * never reuses a token costs.
 */
import { costRatioGoal, ratioGoal } from "./goalShapes";
import type { Goal, RunRow } from "./types";

export function identityGoals(rows: RunRow[]): Goal[] {
  const row = (name: string) => rows.find((r) => r.subject === "identity" && r.case === name);
  const cpu = (name: string) => row(name)?.nodeCpuUsPerOp;
  return [
    ...["es256", "rs256"].flatMap((alg) =>
      costRatioGoal(
        `tenant host: JWT ${alg.toUpperCase()} caller (token reused) / Sluice key, server CPU per request`,
        cpu(`host-jwt-${alg}`),
        cpu("host-key"),
        1.5,
      ),
    ),
    ...costRatioGoal(
      "tenant host: Sluice key / /api/v1 gateway (same key and upstream), server CPU per request",
      cpu("host-key"),
      cpu("sluice-gateway"),
      1,
    ),
    ...costRatioGoal(
      "tenant host: anonymous caller / /api/v1 gateway with a Sluice key, server CPU per request",
      cpu("host-anonymous"),
      cpu("sluice-gateway"),
      1,
    ),
    ...ratioGoal(
      "tenant host (Sluice key) req/s / bare Node proxy",
      row("host-key")?.opsPerSec,
      row("bare-proxy")?.opsPerSec,
      0.6,
    ),
    ...costRatioGoal(
      "host lookup: time per lookup with 10,000 hosts / with 10 hosts",
      row("host-lookup-10000-hosts")?.p50Ms,
      row("host-lookup-10-hosts")?.p50Ms,
      2,
    ),
  ];
}
