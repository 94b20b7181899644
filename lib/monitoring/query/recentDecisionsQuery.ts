/**
 * The recent decisions of one API key (live or revoked), newest first: what its key page lists.
 *
 * Reads the key's list (lib/monitoring/record/recentDecisions.ts): the last RECENT_DECISIONS_KEPT decisions
 * written by every instance's flush within the last 24 h. Each instance pushes its own interval's
 * decisions once a second, so the list is ordered by flush, not exactly by time, when several
 * instances serve the key; the query sorts the entries it reads by `atMs` (newest first, stable),
 * so only which entries are "the last 50" is approximate across instances.
 * An unknown key id is a 404 (AppError `not_found`); a malformed entry is skipped; Redis not
 * answering in time is a 503 (`limiter_unavailable`, lib/monitoring/query/readPlan.ts).
 */
import { AppError } from "../../http/errors";
import { parseInput } from "../../http/validate";
import { monitoringKeys, RECENT_DECISIONS_KEPT } from "../record/monitoringKeys";
import type { MonitoringReadDeps } from "./readDeps";
import { recentDecisionsQuerySchema, type RecentDecisionsQuery } from "./monitoringSchemas";
import { parseRecentDecision, type RecentDecision } from "../record/recentDecisions";
import { ReadPlan } from "./readPlan";
import type { RecentDecisions } from "./monitoringAnswers";

export async function recentDecisions(deps: MonitoringReadDeps, query: RecentDecisionsQuery): Promise<RecentDecisions> {
  const input = parseInput(recentDecisionsQuerySchema, query);
  const tenantId = await deps.directory.keyTenant(input.keyId);
  if (tenantId === null) throw new AppError("not_found", `No API key with id ${JSON.stringify(input.keyId)}.`);
  const plan = new ReadPlan();
  const handle = plan.add(tenantId, [
    "LRANGE",
    monitoringKeys(deps.prefix, tenantId).recent(input.keyId),
    0,
    RECENT_DECISIONS_KEPT - 1,
  ]);
  const reply = (await plan.run(deps.redis, deps.timeoutMs))(handle);
  const decisions = (Array.isArray(reply) ? reply : [])
    .map(parseRecentDecision)
    .filter((entry): entry is RecentDecision => entry !== null)
    .sort((x, y) => y.atMs - x.atMs);
  return { decisions: decisions.slice(0, input.limit) };
}
