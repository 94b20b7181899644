/**
 * "Limited right now": the subjects (API keys, tenants, client IPs, identifiers) an enforce rule
 * refused in the last minute, each with its rule and its quota as the live limiter sees it now.
 *
 * Contract
 * - Reads the limited sets of the current and the previous minute (lib/monitoring/record/monitoringKeys.ts)
 *   and keeps the subjects whose latest refusal is at most WINDOW_MS before `nowMs`.
 * - `refused` counts each subject's current streak: the refusals of every minute back from now in
 *   which it was refused without a gap, up to STREAK_MINUTES, and `refusedSinceMs` is the start of
 *   the streak's first minute. So a client refused for ten minutes shows "since" ten minutes ago
 *   and its count keeps growing; it does not reset at each minute (issue 31, point 6). The count
 *   sets keep their top LIMITED_KEPT subjects, so a streak seen among fewer may start later.
 * - Quota: one `peek` per subject (charges nothing) over the rules refused it, through `live`
 *   (the monitoring connection's limiter), each as in force for the subject NOW: for a key, its
 *   effective rule of that name (a key override replaces the tenant rule it names, limit and all). A rule that no longer exists has `quota` null; so has
 *   every rule when no live limiter is given. Redis down or too slow: AppError
 *   `limiter_unavailable` (503), never a made-up figure.
 * - Order: still refused now (`retryAfterMs` > 0) first, then most refusals, then the latest,
 *   then by member; at most `limit` rows.
 */
import { AppError } from "../../http/errors";
import { parseInput } from "../../http/validate";
import type { Limiter } from "../../limiter/decide";
import { capacityOf, LimiterUnavailableError, type LimiterRule, type Subject } from "../../limiter/types";
import { limitedMember, parseLimitedMember, type LimitedSubject } from "../record/limitedSubjects";
import { labelRules } from "./monitoringDirectory";
import { GLOBAL_SCOPE, MINUTE_MS, minuteOf, monitoringKeys } from "../record/monitoringKeys";
import type { MonitoringReadDeps } from "./readDeps";
import { limitedNowQuerySchema, type LimitedNowQuery } from "./monitoringSchemas";
import { ReadPlan, scored } from "./readPlan";
import type { LimitedClient, LimitedNow, LimitedQuota } from "./monitoringAnswers";

export const WINDOW_MS = MINUTE_MS;
/** How far back a streak of refusals is followed (minutes, the current one included). */
export const STREAK_MINUTES = 60;

/**
 * The live side: the rule a ref names now, and the limiter to peek it. `keyId` is given for a
 * key-scope subject: the rule is then the one in that key's effective rules (an override in place
 * of the tenant rule of the same name and ref), as enforcement applies it.
 */
export interface LiveRules {
  rule(tenantId: string, ref: string, keyId?: string): LimiterRule | null;
  peek: Limiter["peek"];
}

interface Seen {
  subject: LimitedSubject;
  member: string;
  refused: number;
  lastMs: number;
  /** Epoch minute the streak starts in. */
  fromMinute: number;
}

function subjectOf(s: LimitedSubject): Subject {
  switch (s.scope) {
    case "key":
      return { tenantId: s.tenantId, keyId: s.value };
    case "ip":
      return { tenantId: s.tenantId, ip: s.value };
    case "identifier":
      return { tenantId: s.tenantId, identifier: s.value };
    case "tenant":
    case "header":
    case "query":
    case "descriptor":
      // An attribute's value is added per rule (peekQuotas): the subject names no attribute itself.
      return { tenantId: s.tenantId };
  }
}

/** Peeks every subject's refusing rules, one call per subject; null for rules gone. */
async function peekQuotas(
  live: LiveRules | undefined,
  seen: Seen[],
): Promise<{ nowMs: number | null; quotas: Map<string, LimitedQuota | null> }> {
  const quotas = new Map<string, LimitedQuota | null>();
  if (!live) return { nowMs: null, quotas };
  const bySubject = new Map<string, { subject: Subject; rows: { member: string; rule: LimiterRule }[] }>();
  for (const s of seen) {
    const keyId = s.subject.scope === "key" ? s.subject.value : undefined;
    const found = live.rule(s.subject.tenantId, s.subject.ref, keyId);
    if (!found) continue;
    // A descriptor rule reads its subject from a slot (lib/dataplane/envoy/descriptorRules.ts): one per rule here.
    const rule = found.scope === "descriptor" ? { ...found, descriptorSlot: `0:${found.ref}` } : found;
    const id = limitedMember({ ...s.subject, ref: "" });
    let group = bySubject.get(id);
    if (!group) bySubject.set(id, (group = { subject: subjectOf(s.subject), rows: [] }));
    group.rows.push({ member: s.member, rule });
    if (rule.attribute)
      group.subject.attributes = { ...group.subject.attributes, [rule.attribute.id]: s.subject.value };
    if (rule.descriptorSlot)
      group.subject.attributes = { ...group.subject.attributes, [rule.descriptorSlot]: s.subject.value };
  }
  let nowMs: number | null = null;
  try {
    await Promise.all(
      [...bySubject.values()].map(async ({ subject, rows }) => {
        const decision = await live.peek(
          rows.map((r) => r.rule),
          subject,
        );
        nowMs = Math.max(nowMs ?? 0, decision.nowMs);
        rows.forEach(({ member, rule }, i) => {
          const r = decision.results[i];
          if (!r) return;
          quotas.set(member, {
            limit: rule.limit,
            windowMs: rule.windowMs,
            capacity: capacityOf(rule),
            remaining: r.remaining,
            retryAfterMs: r.retryAfterMs,
            resetMs: r.resetMs,
          });
        });
      }),
    );
  } catch (error) {
    if (error instanceof LimiterUnavailableError) {
      throw new AppError(
        "limiter_unavailable",
        "Remaining quota cannot be read right now: Redis is unavailable or too slow. Retry shortly.",
        { headers: { "Retry-After": "1" } },
      );
    }
    throw error;
  }
  return { nowMs, quotas };
}

/**
 * Extends the streaks of subjects refused in the previous minute back through the earlier minutes
 * (one ZMSCORE per minute, one pipeline), while each minute has refusals of the subject.
 */
async function followStreaks(deps: MonitoringReadDeps, scope: string, minute: number, streaks: Seen[]): Promise<void> {
  if (streaks.length === 0) return;
  const keys = monitoringKeys(deps.prefix, scope);
  const members = streaks.map((s) => s.member);
  const plan = new ReadPlan();
  const earlier: { minute: number; handle: ReturnType<ReadPlan["add"]> }[] = [];
  for (let m = minute - 2; m > minute - STREAK_MINUTES; m--)
    earlier.push({ minute: m, handle: plan.add(scope, ["ZMSCORE", keys.limitedCounts(m), ...members]) });
  const replies = await plan.run(deps.redis, deps.timeoutMs);
  const open = new Set(streaks.map((_, i) => i));
  for (const { minute: m, handle } of earlier) {
    const reply = replies(handle);
    const scores = Array.isArray(reply) ? reply : [];
    for (const i of [...open]) {
      const n = Number(scores[i] ?? NaN);
      if (scores[i] === null || scores[i] === undefined || !Number.isFinite(n)) {
        open.delete(i);
        continue;
      }
      streaks[i]!.refused += n;
      streaks[i]!.fromMinute = m;
    }
    if (open.size === 0) break;
  }
}

const stillLimited = (c: LimitedClient): number => (c.quota && c.quota.retryAfterMs > 0 ? 0 : 1);

export async function limitedNow(
  deps: MonitoringReadDeps,
  live: LiveRules | undefined,
  query: LimitedNowQuery,
): Promise<LimitedNow> {
  const input = parseInput(limitedNowQuerySchema, query);
  const scope = input.tenantId ?? GLOBAL_SCOPE;
  const keys = monitoringKeys(deps.prefix, scope);
  const minute = minuteOf(input.nowMs);
  const plan = new ReadPlan();
  const reads = [minute - 1, minute].map((m) => ({
    latest: plan.add(scope, ["ZRANGE", keys.limited(m), 0, -1, "WITHSCORES"]),
    counts: plan.add(scope, ["ZRANGE", keys.limitedCounts(m), 0, -1, "WITHSCORES"]),
  }));
  const replies = await plan.run(deps.redis, deps.timeoutMs);

  const seen = new Map<string, Seen>();
  for (const read of reads) {
    for (const [member, lastMs] of scored(replies(read.latest))) {
      const subject = parseLimitedMember(member);
      if (!subject) continue;
      const known = seen.get(member);
      if (known) known.lastMs = Math.max(known.lastMs, lastMs);
      else seen.set(member, { subject, member, refused: 0, lastMs, fromMinute: minute });
    }
  }
  const inPrevious = new Set<string>();
  reads.forEach((read, i) => {
    for (const [member, n] of scored(replies(read.counts))) {
      const known = seen.get(member);
      if (!known) continue;
      known.refused += n;
      if (i === 0) inPrevious.add(member);
      known.fromMinute = Math.min(known.fromMinute, minute - 1 + i);
    }
  });
  const recent = [...seen.values()].filter(
    (s) => s.lastMs >= input.nowMs - WINDOW_MS && s.lastMs <= input.nowMs + WINDOW_MS,
  );
  await followStreaks(
    deps,
    scope,
    minute,
    recent.filter((s) => inPrevious.has(s.member)),
  );

  const [{ nowMs, quotas }, label] = await Promise.all([
    peekQuotas(live, recent),
    labelRules(
      deps.directory,
      recent.map((s) => [s.subject.tenantId, s.subject.ref]),
    ),
  ]);
  const clients: LimitedClient[] = recent.map((s) => ({
    tenantId: s.subject.tenantId,
    tenantName: deps.directory.tenantName(s.subject.tenantId),
    scope: s.subject.scope,
    subject: s.subject.value,
    keyName: s.subject.scope === "key" ? deps.directory.keyName(s.subject.tenantId, s.subject.value) : null,
    rule: label(s.subject.tenantId, s.subject.ref),
    refused: s.refused,
    refusedSinceMs: s.fromMinute * MINUTE_MS,
    lastRefusedMs: s.lastMs,
    quota: quotas.get(s.member) ?? null,
  }));
  const member = (c: LimitedClient) =>
    limitedMember({ tenantId: c.tenantId, ref: c.rule.ref, scope: c.scope, value: c.subject });
  clients.sort(
    (x, y) =>
      stillLimited(x) - stillLimited(y) ||
      y.refused - x.refused ||
      y.lastRefusedMs - x.lastRefusedMs ||
      (member(x) < member(y) ? -1 : 1),
  );
  const shown = clients.slice(0, input.limit);
  const sinceMs = Math.min((minute - 1) * MINUTE_MS, ...shown.map((c) => c.refusedSinceMs));
  return { nowMs: nowMs ?? input.nowMs, sinceMs, clients: shown };
}
