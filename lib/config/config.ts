/**
 * Process configuration read from the environment, once, with the contract's defaults.
 * Invalid values throw at first use with the variable's name, so a typo never silently means "default".
 */
import "server-only";
import { parseAllowedRanges, type AddressRange } from "./addressRanges";
import { adminTokenProblem } from "./adminToken.js";
import { emailSchema, newPasswordSchema } from "../common/operatorFields";
import { parseNodeList, type NodeAddress } from "./nodeList";
import { oidcFromEnv, passwordLoginFromEnv, type OidcConfig } from "./oidcConfig";
import { parseTrustProxy, type TrustProxy } from "./trustProxy";
import { listUsesTls, redisTlsFrom, type RedisTlsSettings } from "./redisTls";

/** Requests kept per tenant for the simulator (lib/monitoring/record/requestTrace.ts) unless SLUICE_SIM_MAX_REQUESTS says otherwise. */
export const DEFAULT_TRACE_MAX_REQUESTS = 200_000;
/** Distinct values per `header`/`query`/`identifier` rule and tenant, per instance (lib/limiter/subjectBudget.ts). */
export const DEFAULT_SUBJECT_BUDGET = 100_000;

export interface SluiceConfig {
  databaseUrl: string;
  redisUrl: string;
  /** Redis Cluster mode: SLUICE_REDIS_CLUSTER=1, or REDIS_URL lists several nodes. */
  redisCluster: boolean;
  /**
   * Redis Sentinel: the master named SLUICE_REDIS_SENTINEL_NAME (default `mymaster`) is found
   * through the sentinels of SLUICE_REDIS_SENTINELS (`host:port,...`, port 26379 by default);
   * REDIS_URL then only gives the credentials and database. SLUICE_REDIS_SENTINEL_PASSWORD, if the
   * sentinels require one. Not with a Cluster. `tls`: the entries are `rediss://` (lib/config/redisTls.ts).
   */
  redisSentinel: { sentinels: NodeAddress[]; name: string; password?: string; tls?: boolean } | undefined;
  /** TLS to Redis: the data nodes when REDIS_URL is `rediss://`, with these CA, client certificate and SNI name. */
  redisTls: RedisTlsSettings;
  redisPrefix: string;
  redisTimeoutMs: number;
  /** ioredis auto-pipelining; off by default (the benchmark shows it slows the Lua limiters). */
  redisAutoPipelining: boolean;
  /** `redis`: scripts read Redis TIME; `app`: this process's clock is passed in (managed Redis without TIME). */
  timeSource: "redis" | "app";
  anonLimitPerMinute: number;
  /** SLUICE_TRUST_PROXY: a hop count or the proxies' addresses (lib/config/trustProxy.ts). */
  trustProxy: TrustProxy;
  /** SLUICE_ADMIN_TOKEN: at least 32 characters (lib/config/adminToken.js), or unset. */
  adminToken: string | undefined;
  /** SLUICE_METRICS_TOKEN: when set, GET /api/metrics needs `Authorization: Bearer <it>`. */
  metricsToken: string | undefined;
  /**
   * Wrong bearer tokens (admin API, metrics) one client address may send per 10 minutes, per
   * instance, before it is answered 429 (SLUICE_BEARER_FAILURES_PER_IP, default 30).
   */
  bearerFailuresPerIp: number;
  /**
   * The first `admin` operator (SLUICE_ADMIN_EMAIL, SLUICE_ADMIN_PASSWORD), created when no
   * operator exists yet (lib/control/auth/firstAdmin.ts). Both or neither; the email is stored lower-cased.
   */
  firstAdmin: { email: string; password: string } | undefined;
  /**
   * `off` (SLUICE_ENFORCEMENT=off): requests are still authenticated but no rule is checked. An
   * emergency switch, and the baseline of the HTTP benchmark. Default `on`.
   */
  enforcement: "on" | "off";
  /** Requests kept per tenant for the rule simulator (SLUICE_SIM_MAX_REQUESTS, default 200,000). */
  simMaxRequests: number;
  /**
   * SLUICE_SUBJECT_BUDGET (default 100,000): distinct values one `header`, `query` or `identifier`
   * rule of a tenant counts on counters of their own, per instance; beyond it values share
   * overflow counters (lib/limiter/subjectBudget.ts), so Redis stays bounded.
   */
  subjectBudget: number;
  /**
   * SLUICE_REQUIRE_NOEVICTION=1: refuse to start when Redis's maxmemory-policy evicts keys
   * (lib/redis/evictionPolicy.ts). Without it such a policy is only logged loudly and reported.
   */
  requireNoEviction: boolean;
  /** In-product alerts (lib/control/alerts, docs/webhooks.md). */
  alerts: AlertConfig;
  /**
   * Envoy's rate limit service (lib/dataplane/envoy, docs/envoy.md): served over plaintext gRPC on
   * SLUICE_GRPC_HOST (default 127.0.0.1) : SLUICE_GRPC_PORT when the port is set; off otherwise.
   */
  grpc?: { host: string; port: number };
  /** Dashboard single sign-on (SLUICE_OIDC_*, lib/config/oidcConfig.ts); undefined when off. */
  oidc: OidcConfig | undefined;
  /** SLUICE_PASSWORD_LOGIN (default on): email-and-password login; off only with SSO. */
  passwordLogin: boolean;
}

export interface AlertConfig {
  /** How often each instance evaluates the conditions (SLUICE_ALERT_INTERVAL_MS, default 10,000). */
  intervalMs: number;
  /** Webhook attempts in all, the first included (SLUICE_ALERT_ATTEMPTS, default 5). */
  attempts: number;
  /** First retry's backoff step (SLUICE_ALERT_RETRY_BASE_MS, default 1,000; doubled per attempt, at most 60 s). */
  retryBaseMs: number;
  /** One attempt's timeout (SLUICE_ALERT_TIMEOUT_MS, default 5,000). */
  timeoutMs: number;
  /**
   * SLUICE_ALERT_ALLOWED_ADDRESSES: CIDRs webhooks may reach although private, loopback or
   * reserved (comma-separated, e.g. `10.1.0.0/16,127.0.0.1`); empty by default: public only.
   */
  allowedAddresses: AddressRange[];
}

function intFrom(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** SLUICE_GRPC_PORT (1..65535) and SLUICE_GRPC_HOST (an address or host name, default 127.0.0.1). */
function grpcFrom(): SluiceConfig["grpc"] {
  const rawPort = process.env.SLUICE_GRPC_PORT;
  if (rawPort === undefined || rawPort === "") return undefined;
  const port = intFrom("SLUICE_GRPC_PORT", 0, 1, 65_535);
  const host = process.env.SLUICE_GRPC_HOST || "127.0.0.1";
  if (!/^(\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:.]+|[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?)$/.test(host))
    throw new Error(`SLUICE_GRPC_HOST must be an IP address or a host name, got "${host}"`);
  return { host, port };
}

function flagFrom(name: string): boolean {
  const raw = process.env[name];
  return raw === "1" || raw === "true";
}

function sentinelFrom(cluster: boolean): SluiceConfig["redisSentinel"] {
  const list = process.env.SLUICE_REDIS_SENTINELS ?? "";
  if (list.trim() === "") return undefined;
  if (cluster)
    throw new Error(
      "SLUICE_REDIS_SENTINELS cannot be used with a Redis Cluster (SLUICE_REDIS_CLUSTER or several nodes in REDIS_URL)",
    );
  let sentinels: NodeAddress[];
  try {
    sentinels = parseNodeList(list, 26379);
  } catch (error) {
    throw new Error(
      `SLUICE_REDIS_SENTINELS must list host:port entries separated by commas: ${(error as Error).message}`,
    );
  }
  const name = process.env.SLUICE_REDIS_SENTINEL_NAME || "mymaster";
  if (!/^[\w.-]{1,64}$/.test(name))
    throw new Error(`SLUICE_REDIS_SENTINEL_NAME must be a master name (letters, digits, _ . -), got "${name}"`);
  const password = process.env.SLUICE_REDIS_SENTINEL_PASSWORD || undefined;
  const tls = listUsesTls(list, "SLUICE_REDIS_SENTINELS");
  return { sentinels, name, ...(password === undefined ? {} : { password }), ...(tls ? { tls } : {}) };
}

/** Both variables or neither, checked by the admin API's own schemas (lib/common/operatorFields.ts). */
function firstAdminFrom(): SluiceConfig["firstAdmin"] {
  const rawEmail = process.env.SLUICE_ADMIN_EMAIL ?? "";
  const rawPassword = process.env.SLUICE_ADMIN_PASSWORD ?? "";
  if (rawEmail === "" && rawPassword === "") return undefined;
  if (rawEmail === "") throw new Error("SLUICE_ADMIN_EMAIL must be set when SLUICE_ADMIN_PASSWORD is");
  if (rawPassword === "") throw new Error("SLUICE_ADMIN_PASSWORD must be set when SLUICE_ADMIN_EMAIL is");
  const email = emailSchema.safeParse(rawEmail);
  if (!email.success) throw new Error(`SLUICE_ADMIN_EMAIL: ${email.error.issues[0]?.message}, got "${rawEmail}"`);
  const password = newPasswordSchema.safeParse(rawPassword);
  if (!password.success) throw new Error(`SLUICE_ADMIN_PASSWORD: ${password.error.issues[0]?.message}`);
  return { email: email.data, password: password.data };
}

export function readConfig(): SluiceConfig {
  const redisUrl = process.env.REDIS_URL || "redis://127.0.0.1:6379";
  const redisPrefix = process.env.SLUICE_REDIS_PREFIX ?? "sluice:";
  if (/[{}]/.test(redisPrefix)) {
    // The prefix precedes the tenant hash tag; a brace in it would become the hash tag instead.
    throw new Error("SLUICE_REDIS_PREFIX must not contain { or }");
  }
  const timeSource = process.env.SLUICE_TIME_SOURCE || "redis";
  if (timeSource !== "redis" && timeSource !== "app") {
    throw new Error(`SLUICE_TIME_SOURCE must be "redis" or "app", got "${timeSource}"`);
  }
  const enforcement = process.env.SLUICE_ENFORCEMENT || "on";
  if (enforcement !== "on" && enforcement !== "off") {
    throw new Error(`SLUICE_ENFORCEMENT must be "on" or "off", got "${enforcement}"`);
  }
  const redisCluster = flagFrom("SLUICE_REDIS_CLUSTER") || redisUrl.includes(",");
  const redisSentinel = sentinelFrom(redisCluster);
  const redisTls = redisTlsFrom(process.env, listUsesTls(redisUrl, "REDIS_URL") || redisSentinel?.tls === true);
  const adminToken = process.env.SLUICE_ADMIN_TOKEN || undefined;
  const tokenProblem = adminTokenProblem(adminToken);
  if (tokenProblem) throw new Error(tokenProblem);
  const metricsToken = process.env.SLUICE_METRICS_TOKEN || undefined;
  const oidc = oidcFromEnv(process.env);
  if (metricsToken !== undefined && metricsToken.length < 16)
    throw new Error(`SLUICE_METRICS_TOKEN must be at least 16 characters (it has ${metricsToken.length})`);
  return {
    databaseUrl: process.env.DATABASE_URL || "postgresql://postgres@127.0.0.1:5432/sluice",
    redisUrl,
    redisCluster,
    redisSentinel,
    redisTls,
    redisPrefix,
    redisTimeoutMs: intFrom("SLUICE_REDIS_TIMEOUT_MS", 100, 1, 60_000),
    redisAutoPipelining: flagFrom("SLUICE_REDIS_AUTOPIPELINE"),
    timeSource,
    anonLimitPerMinute: intFrom("SLUICE_ANON_LIMIT_PER_MINUTE", 30, 1, 1_000_000_000),
    trustProxy: parseTrustProxy(process.env.SLUICE_TRUST_PROXY),
    adminToken,
    metricsToken,
    bearerFailuresPerIp: intFrom("SLUICE_BEARER_FAILURES_PER_IP", 30, 1, 1_000_000_000),
    firstAdmin: firstAdminFrom(),
    enforcement,
    simMaxRequests: intFrom("SLUICE_SIM_MAX_REQUESTS", DEFAULT_TRACE_MAX_REQUESTS, 1_000, 10_000_000),
    subjectBudget: intFrom("SLUICE_SUBJECT_BUDGET", DEFAULT_SUBJECT_BUDGET, 1, 10_000_000),
    requireNoEviction: flagFrom("SLUICE_REQUIRE_NOEVICTION"),
    grpc: grpcFrom(),
    oidc,
    passwordLogin: passwordLoginFromEnv(process.env, oidc),
    alerts: {
      intervalMs: intFrom("SLUICE_ALERT_INTERVAL_MS", 10_000, 100, 3_600_000),
      attempts: intFrom("SLUICE_ALERT_ATTEMPTS", 5, 1, 20),
      retryBaseMs: intFrom("SLUICE_ALERT_RETRY_BASE_MS", 1_000, 1, 600_000),
      timeoutMs: intFrom("SLUICE_ALERT_TIMEOUT_MS", 5_000, 100, 60_000),
      allowedAddresses: parseAllowedRanges(process.env.SLUICE_ALERT_ALLOWED_ADDRESSES ?? ""),
    },
  };
}

let cached: SluiceConfig | undefined;

/** The process-wide configuration (read on first call). */
export function config(): SluiceConfig {
  cached ??= readConfig();
  return cached;
}
