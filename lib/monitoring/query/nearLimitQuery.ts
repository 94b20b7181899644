/**
 * Clients near their limit: the API keys whose remaining quota fell lowest relative to the rule's
 * capacity in a range (every tenant's, or one tenant's), one row per key with its most constrained
 * enforce rule; lowest fraction first, then the most recent, then by id. A key refused by a rule
 * is at fraction 0.
 *
 * Reads the per-minute near-limit sets for ranges up to 1 h, else the per-hour sets (`atMs` is the
 * start of the minute or hour in which the lowest fraction was seen). The sets keep the
 * LOWS_KEPT lowest marks of each minute or hour. `remaining` is fraction × capacity, rounded: exact
 * for capacities up to 500,000 (fractions are stored to 1e-6).
 */
import { parseInput } from "../../http/validate";
import { labelRules } from "./monitoringDirectory";
import { GLOBAL_SCOPE, monitoringKeys, parseClientMember } from "../record/monitoringKeys";
import type { MonitoringReadDeps } from "./readDeps";
import { nearLimitQuerySchema, type NearLimitQuery } from "./monitoringSchemas";
import { ReadPlan, scored } from "./readPlan";
import { periodsCovering, periodStartMs, setResolution } from "./timeBuckets";
import type { NearLimit, NearLimitClient } from "./monitoringAnswers";

interface Mark {
  client: string;
  ref: string;
  capacity: number;
  fraction: number;
  atMs: number;
}

function parseMark(member: string, fraction: number, atMs: number): Mark | null {
  const parts = member.split("/");
  const capacity = Number(parts[2]);
  if (parts.length !== 3 || !(capacity > 0)) return null;
  return { client: parts[0]!, ref: parts[1]!, capacity, fraction, atMs };
}

/** Lower fraction first; then the later sighting; then by rule ref. */
const lower = (x: Mark, y: Mark): number =>
  x.fraction - y.fraction || y.atMs - x.atMs || (x.ref < y.ref ? -1 : x.ref > y.ref ? 1 : 0);

export async function nearLimit(deps: MonitoringReadDeps, query: NearLimitQuery): Promise<NearLimit> {
  const input = parseInput(nearLimitQuerySchema, query);
  const scope = input.tenantId ?? GLOBAL_SCOPE;
  const keys = monitoringKeys(deps.prefix, scope);
  const resolution = setResolution(input.fromMs, input.toMs);
  const plan = new ReadPlan();
  const reads = periodsCovering(resolution, input.fromMs, input.toMs).map((index) => ({
    atMs: periodStartMs(resolution, index),
    handle: plan.add(scope, ["ZRANGE", keys.lows(resolution, index), 0, -1, "WITHSCORES"]),
  }));
  const replies = await plan.run(deps.redis, deps.timeoutMs);

  const lowest = new Map<string, Mark>();
  for (const read of reads) {
    for (const [member, fraction] of scored(replies(read.handle))) {
      const mark = parseMark(member, fraction, read.atMs);
      if (!mark) continue;
      const known = lowest.get(mark.client);
      if (!known || lower(mark, known) < 0) lowest.set(mark.client, mark);
    }
  }
  const top = [...lowest.values()].sort((x, y) => lower(x, y) || (x.client < y.client ? -1 : 1)).slice(0, input.limit);

  const marks = top.map((mark) => ({ mark, client: parseClientMember(scope, mark.client) }));
  const label = await labelRules(
    deps.directory,
    marks.map(({ mark, client }) => [client.tenantId, mark.ref]),
  );
  const clients: NearLimitClient[] = marks.map(({ mark, client: { tenantId, keyId } }) => ({
    tenantId,
    tenantName: deps.directory.tenantName(tenantId),
    keyId,
    keyName: deps.directory.keyName(tenantId, keyId),
    rule: label(tenantId, mark.ref),
    capacity: mark.capacity,
    remaining: Math.round(mark.fraction * mark.capacity),
    fraction: mark.fraction,
    atMs: mark.atMs,
  }));
  return { fromMs: input.fromMs, toMs: input.toMs, resolution, clients };
}
