/**
 * "Limited right now": the subjects (API keys, tenants, client IPs, identifiers) an enforce rule
 * refused in the last minute, each with its rule and its quota as the live limiter sees it now.
 *
 * Contract
 * - Reads the limited sets of the current and the previous minute (lib/monitoring/record/monitoringKeys.ts)
 *   and keeps the subjects whose latest refusal is at most WINDOW_MS before `nowMs`; `refused`
 *   sums both minutes (so it counts the refusals since the start of the previous minute).
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
import { capacityOf, LimiterUnavailableError, type LimiterRule, type Scope, type Subject } from "../../limiter/types";
import { limitedMember, parseLimitedMember, type LimitedSubject } from "../record/limitedSubjects";
import { labelRules, type RuleLabel } from "./monitoringDirectory";
import { GLOBAL_SCOPE, MINUTE_MS, minuteOf, monitoringKeys } from "../record/monitoringKeys";
import type { MonitoringReadDeps } from "./readDeps";
import { limitedNowQuerySchema, type LimitedNowQuery } from "./monitoringSchemas";
import { ReadPlan, scored } from "./readPlan";

export const WINDOW_MS = MINUTE_MS;

/**
 * The live side: the rule a ref names now, and the limiter to peek it. `keyId` is given for a
 * key-scope subject: the rule is then the one in that key's effective rules (an override in place
 * of the tenant rule of the same name and ref), as enforcement applies it.
 */
export interface LiveRules {
  rule(tenantId: string, ref: string, keyId?: string): LimiterRule | null;
  peek: Limiter["peek"];
}

export interface LimitedQuota {
  limit: number;
  windowMs: number;
  /** `burst` for token_bucket and gcra, else `limit`. */
  capacity: number;
  remaining: number;
  /** 0 when a request would pass this rule now; else until it would (ms). */
  retryAfterMs: number;
  /** Until the rule is whole again (ms). */
  resetMs: number;
}

export interface LimitedClient {
  tenantId: string;
  tenantName: string | null;
  scope: Scope;
  /** Key id, ip or identifier; "" for a tenant-scope rule. */
  subject: string;
  /** For a key-scope rule: the key's name (null once revoked). */
  keyName: string | null;
  rule: RuleLabel;
  refused: number;
  lastRefusedMs: number;
  quota: LimitedQuota | null;
}

export interface LimitedNow {
  nowMs: number;
  /** The refusals counted in `refused` are those since this time. */
  sinceMs: number;
  clients: LimitedClient[];
}

interface Seen {
  subject: LimitedSubject;
  member: string;
  refused: number;
  lastMs: number;
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
      else seen.set(member, { subject, member, refused: 0, lastMs });
    }
  }
  for (const read of reads) {
    for (const [member, n] of scored(replies(read.counts))) {
      const known = seen.get(member);
      if (known) known.refused += n;
    }
  }
  const recent = [...seen.values()].filter(
    (s) => s.lastMs >= input.nowMs - WINDOW_MS && s.lastMs <= input.nowMs + WINDOW_MS,
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
  return { nowMs: nowMs ?? input.nowMs, sinceMs: (minute - 1) * MINUTE_MS, clients: clients.slice(0, input.limit) };
}
