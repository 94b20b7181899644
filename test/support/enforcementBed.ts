/**
 * One built Sluice server for a file of enforcement tests over HTTP (`npm run build` first), and
 * the contract's answers as assertions:
 * - `enforcementBed(label, env)`: starts the server before the file's tests and stops it after,
 *   deleting the tenants it made and its Redis prefix; `fixture(rules, keys)` makes a fresh tenant
 *   with those rules and keys through the admin API; `echo(key, path, method)` calls /api/v1;
 * - `expectQuotaExceeded`, `expectProblem`, `expectNoRateLimitHeaders`: the 429, a problem+json
 *   answer, and an answer that carries no rate-limit header;
 * - `policyQuota`, `remainingOf`: one rule's `q` in RateLimit-Policy and `r` in RateLimit.
 */
import { afterAll, beforeAll, expect } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { adminClient, apiCall, deleteTenants, type AdminClient, type ApiAnswer, type CreatedKey } from "./adminClient";
import { cleanupRedis, sluiceEnv, TEST_DATABASE_URL } from "./sluiceEnv";
import { startSluice, type SluiceServer } from "./sluiceServer";

const QUOTA_EXCEEDED = "https://iana.org/assignments/http-problem-types#quota-exceeded";
const PROBLEM_JSON = "application/problem+json";
export const HOUR_MS = 3_600_000;

export interface EnforcementBed {
  readonly url: string;
  readonly admin: AdminClient;
  /** A fresh tenant with the given rules and `keys` API keys, made through `client` (this server's admin by default). */
  fixture(rules: RuleInput[], keys?: number, client?: AdminClient): Promise<{ tenantId: string; keys: CreatedKey[] }>;
  echo(key: string, path?: string, method?: string): Promise<ApiAnswer>;
}

export function enforcementBed(label: string, extraEnv: Record<string, string> = {}): EnforcementBed {
  const main = sluiceEnv(label, extraEnv);
  let server: SluiceServer | undefined;
  let admin: AdminClient | undefined;
  const createdTenants: string[] = [];

  beforeAll(async () => {
    server = await startSluice({ env: main.env });
    admin = adminClient(server.url, main.adminToken);
  });

  afterAll(async () => {
    await server?.stop();
    await deleteTenants(TEST_DATABASE_URL, createdTenants);
    await cleanupRedis(main.prefix);
  });

  const bed: EnforcementBed = {
    get url() {
      if (!server) throw new Error("the server starts in beforeAll");
      return server.url;
    },
    get admin() {
      if (!admin) throw new Error("the server starts in beforeAll");
      return admin;
    },
    async fixture(rules, keys = 1, client = bed.admin) {
      const tenant = await client.createTenant();
      createdTenants.push(tenant.id);
      await client.putTenantRules(tenant.id, rules);
      const created: CreatedKey[] = [];
      for (let i = 0; i < keys; i++) created.push(await client.createKey(tenant.id, `key ${i}`));
      return { tenantId: tenant.id, keys: created };
    },
    echo: (key, path = "/api/v1/echo", method = "GET") => apiCall(bed.url, path, { key, method }),
  };
  return bed;
}

export function expectNoRateLimitHeaders(res: ApiAnswer): void {
  for (const name of [
    "ratelimit",
    "ratelimit-policy",
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    "retry-after",
  ]) {
    expect(res.headers.get(name), name).toBeNull();
  }
}

/** Asserts the contract's 429: problem body, Retry-After = ceil(retryAfterMs / 1000) >= 1. Returns retryAfterMs. */
export function expectQuotaExceeded(res: ApiAnswer, violated: string[]): number {
  expect(res.status).toBe(429);
  expect(res.headers.get("content-type")).toBe(PROBLEM_JSON);
  expect(res.body).toEqual({
    type: QUOTA_EXCEEDED,
    title: "Too Many Requests",
    status: 429,
    detail: expect.any(String),
    "violated-policies": violated,
    retryAfterMs: expect.any(Number),
  });
  const retryAfterMs = (res.body as { retryAfterMs: number }).retryAfterMs;
  expect(Number.isInteger(retryAfterMs)).toBe(true);
  expect(retryAfterMs).toBeGreaterThan(0);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBe(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  return retryAfterMs;
}

export function expectProblem(res: ApiAnswer, status: number, title: string): void {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe(PROBLEM_JSON);
  expect(res.body).toMatchObject({ title, status, detail: expect.any(String) });
  expect(JSON.stringify(res.body)).not.toMatch(/\bat .*\.(js|ts):\d+/); // no stack trace
}

/** The `q` of one rule in RateLimit-Policy, or undefined when the rule is not listed. */
export function policyQuota(res: ApiAnswer, name: string): number | undefined {
  const match = new RegExp(`"${name}";q=(\\d+);w=\\d+`).exec(res.headers.get("ratelimit-policy") ?? "");
  return match ? Number(match[1]) : undefined;
}

/** The `r` of one rule in RateLimit, or undefined when the rule is not listed. */
export function remainingOf(res: ApiAnswer, name: string): number | undefined {
  const match = new RegExp(`"${name}";r=(\\d+);t=\\d+`).exec(res.headers.get("ratelimit") ?? "");
  return match ? Number(match[1]) : undefined;
}
