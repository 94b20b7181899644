/**
 * The hottest callers of a range: every tenant's (no tenantId) or one tenant's, most requests
 * first (ties by id), with their refused requests and the rule that refused them most. A caller
 * is an API key, a JWT subject (as its safe id: lib/dataplane/admission/hostCaller.ts
 * jwtMonitoringId) or an anonymous address on a tenant host, labelled by `kind`
 * (lib/monitoring/record/callerMember.ts).
 *
 * Reads the per-minute sets of every minute the range overlaps when it spans at most 1 h, else
 * the per-hour sets of every hour it overlaps (so a 24 h view counts whole hours at its edges).
 * The sets keep the top HOT_KEYS_KEPT keys (refusals: top REFUSALS_KEPT entries) of each minute
 * or hour, so figures are exact for keys that stayed among them and a lower bound otherwise:
 * the heavy hitters are always right, a key at the tail may show fewer requests than it made.
 */
import { parseInput } from "../../http/validate";
import { labelRules } from "./monitoringDirectory";
import { parseClientMember } from "../record/monitoringKeys";
import { callerOfMember } from "../record/callerMember";
import type { MonitoringReadDeps } from "./readDeps";
import { hotKeysQuerySchema, type HotKeysQuery } from "./monitoringSchemas";
import { readRangeSets } from "./rangeSets";
import type { HotKey, HotKeys } from "./monitoringAnswers";

interface Tally {
  requests: number;
  refused: number;
  lastRefusedPeriodMs: number | null;
  byRule: Map<string, number>;
}

export async function hotKeys(deps: MonitoringReadDeps, query: HotKeysQuery): Promise<HotKeys> {
  const input = parseInput(hotKeysQuerySchema, query);
  const { scope, resolution, periods } = await readRangeSets(deps, input, ["hotKeys", "refusals"] as const);

  const tallies = new Map<string, Tally>();
  const tally = (member: string) => {
    let t = tallies.get(member);
    if (!t) tallies.set(member, (t = { requests: 0, refused: 0, lastRefusedPeriodMs: null, byRule: new Map() }));
    return t;
  };
  for (const period of periods) {
    for (const [member, n] of period.sets.hotKeys) tally(member).requests += n;
    for (const [member, n] of period.sets.refusals) {
      const slash = member.indexOf("/");
      if (slash < 0) {
        const t = tally(member);
        t.refused += n;
        if (n > 0) t.lastRefusedPeriodMs = Math.max(t.lastRefusedPeriodMs ?? period.startMs, period.startMs);
      } else {
        const t = tally(member.slice(0, slash));
        const ref = member.slice(slash + 1);
        t.byRule.set(ref, (t.byRule.get(ref) ?? 0) + n);
      }
    }
  }
  const top = [...tallies]
    .filter(([, t]) => t.requests > 0)
    .sort(([a, x], [b, y]) => y.requests - x.requests || (a < b ? -1 : 1))
    .slice(0, input.limit);

  const topRules = top.map(([member, t]) => {
    const [ref, refused] = [...t.byRule].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))[0] ?? [];
    return { client: parseClientMember(scope, member), t, ref, refused: refused ?? 0 };
  });
  const label = await labelRules(
    deps.directory,
    topRules.flatMap(({ client, ref }) => (ref === undefined ? [] : [[client.tenantId, ref] as [string, string]])),
  );
  const out: HotKey[] = topRules.map(({ client: { tenantId, keyId }, t, ref, refused }) => ({
    tenantId,
    tenantName: deps.directory.tenantName(tenantId),
    keyId,
    ...keyLabel(deps, tenantId, keyId),
    requests: t.requests,
    refused: t.refused,
    lastRefusedPeriodMs: t.lastRefusedPeriodMs,
    topRule: ref === undefined ? null : { ...label(tenantId, ref), refused },
  }));
  return { fromMs: input.fromMs, toMs: input.toMs, resolution, keys: out };
}

function keyLabel(deps: MonitoringReadDeps, tenantId: string, member: string) {
  const { kind, caller } = callerOfMember(member);
  return { keyName: kind === "key" ? deps.directory.keyName(tenantId, member) : null, kind, caller };
}
