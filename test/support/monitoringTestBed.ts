/**
 * What the monitoring integration tests share: a Redis prefix of their own on the shared local
 * Redis, clients (`client(url)`, also for unreachable ports), recorders with an injected clock
 * (`NOW`, a few minutes ago and 10.5 s into a minute), the queries over a fake directory that
 * names rules `1` per-key, `2` burst, `3` trial (shadow) and knows the key → tenant pairs put in
 * `keyTenants`, ready-made rule results, and `close()` that deletes the prefix and disconnects.
 */
import type { Decision, RuleMode } from "@/lib/limiter/types";
import { DecisionRecorder, type RecordedRequest } from "@/lib/monitoring/record/decisionRecorder";
import type { MonitoringDirectory } from "@/lib/monitoring/query/monitoringDirectory";
import type { RuleLabel } from "@/lib/monitoring/query/monitoringAnswers";
import { monitoringQueries, type MonitoringQueries } from "@/lib/monitoring/query/monitoringQueries";
import { createRedisClient, type RedisClient } from "@/lib/redis/connect";
import { ruleResult } from "./decisions";
import { deleteByPrefix, plainRedis, REDIS_URL, uniquePrefix } from "./testRedis";

export const TIMEOUT_MS = 2_000;
export const MIN = 60_000;
export const HOUR = 3_600_000;
/** The injected clock: 10.5 s into a minute, a few minutes ago (queries name explicit ranges). */
export const NOW = Math.floor(Date.now() / MIN) * MIN - 5 * MIN + 10_500;
/** The start of NOW's second. */
export const SEC = Math.floor(NOW / 1000) * 1000;

const RULES: Record<string, { name: string; mode: RuleMode }> = {
  "1": { name: "per-key", mode: "enforce" },
  "2": { name: "burst", mode: "enforce" },
  "3": { name: "trial", mode: "shadow" },
};

export const per = ruleResult({ name: "per-key", ref: "1", limit: 10 }, { remaining: 5 });
export const perRefused = ruleResult({ name: "per-key", ref: "1", limit: 10 }, { allowed: false, remaining: 0 });
export const trialPass = ruleResult({ name: "trial", ref: "3", mode: "shadow", limit: 4 });
export const trialRefuses = ruleResult(
  { name: "trial", ref: "3", mode: "shadow", limit: 4 },
  { allowed: false, remaining: 0 },
);

export function req(
  tenantId: string,
  keyId: string | undefined,
  decision: Decision | null,
  path = "/api/v1/echo",
): RecordedRequest {
  return { tenantId, keyId, decision, method: "GET", path };
}

export const counts = (p: { allowed: number; refused: number; shadowRefused: number } | undefined) =>
  p ? [p.allowed, p.refused, p.shadowRefused] : undefined;

export function monitoringTestBed(label: string) {
  const prefix = uniquePrefix(label);
  const clients: RedisClient[] = [];
  const client = (url = REDIS_URL): RedisClient => {
    const c = createRedisClient({ url, cluster: false, timeoutMs: TIMEOUT_MS, autoPipelining: false });
    clients.push(c);
    return c;
  };
  const redis = client();
  const plain = plainRedis();
  const keyTenants = new Map<string, string>();
  const directory: MonitoringDirectory = {
    tenantName: (id) => `name of ${id}`,
    keyName: (_tenantId, keyId) => `key ${keyId}`,
    describeRules: async (_tenantId, refs) =>
      new Map(
        refs.map((ref): [string, RuleLabel] => [
          ref,
          { ref, name: RULES[ref]?.name ?? null, mode: RULES[ref]?.mode ?? null },
        ]),
      ),
    refOf: async (_tenantId, name) => Object.entries(RULES).find(([, r]) => r.name === name)?.[0] ?? null,
    keyTenant: async (keyId) => keyTenants.get(keyId) ?? null,
  };
  const queries: MonitoringQueries = monitoringQueries({ redis, prefix, timeoutMs: TIMEOUT_MS, directory });
  let tenantCounter = 0;
  return {
    prefix,
    redis,
    plain,
    client,
    directory,
    keyTenants,
    queries,
    recorder: (redisClient: RedisClient = redis, log: (message: string) => void = () => undefined) =>
      new DecisionRecorder({ redis: redisClient, prefix, timeoutMs: TIMEOUT_MS, clock: () => NOW, log }),
    /** A tenant id of one test alone (8 base62 characters). */
    newTenant: () => `Tn${String(++tenantCounter).padStart(6, "0")}`,
    async close(): Promise<void> {
      await deleteByPrefix(plain, prefix);
      plain.disconnect();
      for (const c of clients) c.disconnect();
    },
  };
}
