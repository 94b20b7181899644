/**
 * A recorded trace for the simulator's integration tests: a tenant with rules (and one key
 * override), three keys, and a fixed plan of requests through the /api/v1/echo handler (admit →
 * limiter → recorder, as live), from four client IPs (X-Forwarded-For, read as the client address
 * without Sluice's server), sent one after another so their order is the limiter's order. The
 * recorder is drained, so the trace is in Redis when `recordTrace` returns.
 */
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { callRoute, type RouteAnswer } from "./routeCall";
import type { Routes } from "./routeTestEnv";

export const CURRENT_RULES: RuleInput[] = [
  { name: "per-key", algorithm: "fixed_window", limit: 6, windowMs: 60_000 },
  {
    name: "per-ip-post",
    scope: "ip",
    algorithm: "token_bucket",
    limit: 2,
    windowMs: 10_000,
    burst: 3,
    match: { methods: ["POST"] },
  },
  { name: "trial", algorithm: "sliding_window", limit: 3, windowMs: 60_000, mode: "shadow" },
];
/** The third key's override: a larger per-key limit (replaces the tenant rule for that key, in both replays). */
export const OVERRIDE_RULES: RuleInput[] = [
  { name: "per-key", algorithm: "fixed_window", limit: 12, windowMs: 60_000 },
];

export interface PlannedRequest {
  key: number;
  method: string;
  path: string;
  ip: string;
}

export const PLAN: PlannedRequest[] = Array.from({ length: 60 }, (_, i) => ({
  key: i % 3,
  method: i % 4 === 0 ? "POST" : "GET",
  path: i % 5 === 0 ? "/api/v1/echo/a/b" : "/api/v1/echo",
  ip: `203.0.113.${i % 4}`,
}));

export interface RecordedTrace {
  tenantId: string;
  keys: { id: string; key: string; name: string }[];
  /** Live status of each planned request, in plan order. */
  statuses: number[];
  startedMs: number;
  endedMs: number;
}

type Admin = (
  handler: Routes,
  init: { method?: string; path?: string; body?: unknown; params?: Record<string, string> },
) => Promise<RouteAnswer>;

export async function recordTrace(
  admin: Admin,
  routes: { tenants: Routes; tenantKeys: Routes; tenantRules: Routes; keyRules: Routes; echo: Routes },
  drain: () => Promise<unknown>,
): Promise<RecordedTrace> {
  const tenant = await admin(routes.tenants, {
    method: "POST",
    body: { name: `simulator-${randomBytes(4).toString("hex")}` },
  });
  expect(tenant.status).toBe(201);
  const tenantId = tenant.body.id as string;
  expect((await admin(routes.tenantRules, { method: "PUT", params: { tenantId }, body: CURRENT_RULES })).status).toBe(
    200,
  );
  const keys = [];
  for (const name of ["steady <key>", "second key", "override key"]) {
    const created = await admin(routes.tenantKeys, { method: "POST", params: { tenantId }, body: { name } });
    expect(created.status).toBe(201);
    keys.push({ id: created.body.id as string, key: created.body.key as string, name });
  }
  expect(
    (await admin(routes.keyRules, { method: "PUT", params: { keyId: keys[2]!.id }, body: OVERRIDE_RULES })).status,
  ).toBe(200);

  const startedMs = Date.now();
  const statuses: number[] = [];
  for (const step of PLAN) {
    const res = await callRoute(routes.echo[step.method], {
      method: step.method,
      path: step.path,
      headers: { authorization: `Bearer ${keys[step.key]!.key}`, "x-forwarded-for": step.ip },
    });
    statuses.push(res.status);
  }
  await drain();
  return { tenantId, keys, statuses, startedMs, endedMs: Date.now() };
}
