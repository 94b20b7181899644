/**
 * Envoy's rate limit service (lib/dataplane/envoy/rlsServer.ts) in the test process, without
 * Postgres: the real gRPC server over an access cache whose tenants the test hands it (rules parsed
 * by the rule schema, as the admin API would), the data plane's limiter (subject budget included)
 * on the shared Redis under a prefix of its own, and a real @grpc/grpc-js client.
 *
 * - `envoyRlsBed(label, options)`, at the top of a test file: starts the server before the file's
 *   tests, stops it and deletes the prefix's keys after; `options.redisUrl` points the limiter
 *   elsewhere (an unreachable or a private Redis for the fail modes: rules with failMode `local`
 *   are enforced in memory, as in the data plane); `options.prefix` shares another bed's key space
 *   (two instances on one Redis); `options.timeoutMs` the limiter's Redis timeout (default 200);
 * - `bed.tenant(rules)`: a fresh tenant with these rules; answers its id (the domain to send);
 * - `bed.call(request)`: one ShouldRateLimit call, answering the response or the gRPC error;
 *   `bed.health(service)`: one Health.Check; `bed.storeDown(true)` makes every load of the rule
 *   store fail (Postgres down), `bed.reload()` runs a full refresh.
 */
import { randomBytes } from "node:crypto";
import { credentials, type Client, type ServiceError } from "@grpc/grpc-js";
import { afterAll, beforeAll } from "vitest";
import { createLimiter } from "@/lib/limiter/decide";
import { LocalLimiter } from "@/lib/limiter/localLimiter";
import { withSubjectBudget } from "@/lib/limiter/budgetedLimiter";
import { SubjectBudget } from "@/lib/limiter/subjectBudget";
import { AccessCache } from "@/lib/policy/compiled/accessCache";
import type { TenantAccess } from "@/lib/policy/compiled/accessLoader";
import { compileRule } from "@/lib/policy/compiled/effectiveRules";
import { ruleListSchema, type RuleInput } from "@/lib/policy/rules/ruleSchema";
import { createRedisClient } from "@/lib/redis/connect";
import { rlsProto } from "@/lib/dataplane/envoy/rlsProto";
import { startRlsServer, type RlsServer } from "@/lib/dataplane/envoy/rlsServer";
import type { Redis } from "ioredis";
import { deleteByPrefix, plainRedis, REDIS_URL, uniquePrefix } from "./testRedis";

export interface Entry {
  key: string;
  value: string;
}
export interface RlsRequestInput {
  domain?: string;
  descriptors?: { entries: Entry[]; hits_addend?: { value: number } }[];
  hits_addend?: number;
}
export interface RlsAnswer {
  error?: ServiceError;
  response?: {
    overall_code: string;
    statuses: {
      code: string;
      current_limit: { name: string; requests_per_unit: number; unit: string } | null;
      limit_remaining: number;
      duration_until_reset: { seconds: number; nanos: number } | null;
    }[];
    response_headers_to_add: { key: string; value: string }[];
  };
}

export interface EnvoyRlsBed {
  readonly port: number;
  readonly prefix: string;
  /** The shared Redis (a plain client for inspection and clean-up). */
  readonly redis: Redis;
  /** `tenantId` given: that tenant (another bed's, for two instances sharing Redis). */
  tenant(rules: RuleInput[], tenantId?: string): Promise<string>;
  call(request: RlsRequestInput): Promise<RlsAnswer>;
  health(service: string): Promise<{ status?: string; error?: ServiceError }>;
  /** The rule store down (every load rejects) or back; `reload()`: a full refresh, as every 15 s. */
  storeDown(down: boolean): void;
  reload(): Promise<void>;
}

const id8 = () => randomBytes(6).toString("base64url").replace(/[-_]/g, "x").slice(0, 8);

type Unary = (request: unknown, callback: (error: ServiceError | null, response: unknown) => void) => void;

export function envoyRlsBed(
  label: string,
  options: { redisUrl?: string; prefix?: string; timeoutMs?: number } = {},
): EnvoyRlsBed {
  const timeoutMs = options.timeoutMs ?? 200;
  const redis = createRedisClient({
    url: options.redisUrl ?? REDIS_URL,
    cluster: false,
    timeoutMs,
    autoPipelining: false,
  });
  const plain = plainRedis();
  const prefix = options.prefix ?? uniquePrefix(label);
  const tenants = new Map<string, TenantAccess>();
  let down = false;
  const store = () => {
    if (down) throw new Error("rule store unreachable (test)");
  };
  const access = new AccessCache({
    loadAll: async () => (store(), new Map(tenants)),
    loadTenant: async (id) => (store(), tenants.get(id) ?? null),
  });
  let server: RlsServer | undefined;
  let rls: Client | undefined;
  let health: Client | undefined;

  beforeAll(async () => {
    const limiter = withSubjectBudget(
      createLimiter({ redis, prefix, timeoutMs, local: new LocalLimiter() }),
      new SubjectBudget({ budget: 1_000 }),
    );
    server = await startRlsServer({
      host: "127.0.0.1",
      port: 0,
      deps: { tenant: (id) => access.tenant(id), ready: () => access.ready(), limiter },
    });
    const target = `127.0.0.1:${server.port}`;
    rls = new (rlsProto().RateLimitService)(target, credentials.createInsecure());
    health = new (rlsProto().Health)(target, credentials.createInsecure());
  });

  afterAll(async () => {
    rls?.close();
    health?.close();
    await server?.stop(1_000);
    await deleteByPrefix(plain, prefix);
    plain.disconnect();
    redis.disconnect();
  });

  const unary = (client: Client | undefined, method: string, request: unknown) =>
    new Promise<{ error?: ServiceError; response?: unknown }>((resolve) => {
      (client as unknown as Record<string, Unary>)[method]!.call(client, request, (error, response) =>
        resolve(error ? { error } : { response }),
      );
    });

  return {
    get port() {
      return server!.port;
    },
    prefix,
    redis: plain,
    async tenant(input, tenantId = id8()) {
      const rules = ruleListSchema.parse(input).map((rule, i) => compileRule(rule, String(i + 1), false));
      tenants.set(tenantId, { id: tenantId, name: tenantId, rules, keys: new Map() });
      await access.tenantChanged(tenantId);
      await access.ready();
      return tenantId;
    },
    async call(request) {
      return (await unary(rls, "ShouldRateLimit", request)) as RlsAnswer;
    },
    storeDown(value) {
      down = value;
    },
    async reload() {
      await access.refreshAll().catch(() => undefined);
    },
    async health(service) {
      const answer = await unary(health, "Check", { service });
      return answer.error ? { error: answer.error } : { status: (answer.response as { status: string }).status };
    },
  };
}
