/**
 * The hottest descriptor subjects of a range (Envoy's rate limit service): for every tenant (no
 * tenantId) or one, each descriptor rule's subject (the values it counts by: one value, a JSON list
 * of several, or "=" for a rule whose every entry has a value) with the ShouldRateLimit calls that
 * met it and the calls that rule refused, most calls first (ties by rule, then value).
 *
 * Read like the hot keys (lib/monitoring/query/hotKeysQuery.ts): per-minute sets up to 1 h, per-hour
 * sets beyond, each keeping the top HOT_KEYS_KEPT subjects (refusals: REFUSALS_KEPT), so the heavy
 * hitters are exact and a subject at the tail is a lower bound. Members that do not parse are
 * skipped.
 */
import { parseInput } from "../../http/validate";
import { labelRules } from "./monitoringDirectory";
import { jsonStringsMember } from "../record/limitedSubjects";
import type { MonitoringReadDeps } from "./readDeps";
import { hotKeysQuerySchema, type HotKeysQuery } from "./monitoringSchemas";
import { readRangeSets } from "./rangeSets";
import type { HotDescriptors } from "./monitoringAnswers";

/** `[tenantId, ref, value]`, as lib/monitoring/record/decisionBatch.ts writes it; null otherwise. */
export function parseDescriptorMember(member: string): { tenantId: string; ref: string; value: string } | null {
  const parsed = jsonStringsMember(member, 3);
  if (!parsed) return null;
  const [tenantId, ref, value] = parsed;
  return { tenantId: tenantId!, ref: ref!, value: value! };
}

/** Adds up the sets' replies per member and keeps the `limit` with the most calls. */
export function tallyDescriptors(
  calls: [string, number][],
  refusals: [string, number][],
  limit: number,
): { tenantId: string; ref: string; value: string; requests: number; refused: number }[] {
  const tallies = new Map<string, { requests: number; refused: number }>();
  const tally = (member: string) => {
    let t = tallies.get(member);
    if (!t) tallies.set(member, (t = { requests: 0, refused: 0 }));
    return t;
  };
  for (const [member, n] of calls) tally(member).requests += n;
  for (const [member, n] of refusals) tally(member).refused += n;
  const rows = [];
  for (const [member, t] of tallies) {
    const parsed = parseDescriptorMember(member);
    if (parsed && t.requests > 0) rows.push({ ...parsed, ...t });
  }
  return rows
    .sort(
      (a, b) =>
        b.requests - a.requests ||
        (a.tenantId < b.tenantId ? -1 : a.tenantId > b.tenantId ? 1 : 0) ||
        (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0) ||
        (a.value < b.value ? -1 : a.value > b.value ? 1 : 0),
    )
    .slice(0, limit);
}

export async function hotDescriptors(deps: MonitoringReadDeps, query: HotKeysQuery): Promise<HotDescriptors> {
  const input = parseInput(hotKeysQuerySchema, query);
  const { resolution, sets } = await readRangeSets(deps, input, ["hotDescriptors", "descriptorRefusals"] as const);
  const top = tallyDescriptors(sets.hotDescriptors, sets.descriptorRefusals, input.limit);
  const label = await labelRules(
    deps.directory,
    top.map((row) => [row.tenantId, row.ref]),
  );
  return {
    fromMs: input.fromMs,
    toMs: input.toMs,
    resolution,
    descriptors: top.map((row) => ({
      tenantId: row.tenantId,
      tenantName: deps.directory.tenantName(row.tenantId),
      rule: label(row.tenantId, row.ref),
      value: row.value,
      requests: row.requests,
      refused: row.refused,
    })),
  };
}
