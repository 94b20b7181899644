/**
 * Property-based fuzzing of every admin route method (routeTable.ts, all of app/api/admin/**):
 * hostile bodies (mutated valid bodies, any JSON, non-JSON, empty, deep, oversized, any content
 * type), path parameters and query strings (hostileInput.ts), sent with the admin token or an
 * admin session cookie with any Origin. Each route gets a fixed seed, so a run is deterministic.
 *
 * Invariants: never a throw, never a 5xx, every 4xx problem+json (fuzzCall.ts); and nothing
 * invalid is stored: after every case the fixture tenant's rules and its key's overrides are
 * what they were, or exactly what a 200 answered, and still pass the rule schema; every created
 * tenant, key or operator has a name or email that passes its schema.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { displayNameSchema, keyRulesSchema, tenantRulesSchema } from "@/lib/control/admin/schemas";
import { emailSchema } from "@/lib/control/auth/operatorSchemas";
import { ORIGIN, type RouteAnswer } from "@/test/support/routeCall";
import { fuzzCall, runs, seedOf } from "./fuzzCall";
import { headerText, hostileBody, hostileQuery, hostileSegment } from "./hostileInput";
import type { RouteMethod } from "./routeInventory";
import { createFixture, securityEnv, type Fixture } from "./securityFixtures";

const sec = securityEnv("fuzz");
// Loaded after the environment is set: config() reads it once, on first use.
const { routeInventory } = await import("./routeInventory");
const { getRules } = await import("@/lib/policy/rules/ruleStore");
const inventory = await routeInventory();
const adminMethods = inventory.methods.filter((m) => m.route.startsWith("api/admin/"));
let fx: Fixture;
let adminId: string;

beforeAll(async () => {
  fx = await createFixture(sec);
  adminId = (await sec.newOperator("admin")).id;
});

afterAll(() => sec.cleanup());

const QUERY_NAMES = ["tenantId", "limit", "before", "range", "from", "to", "step", "rule", "ip", "identifier", "keyId"];

/** Cases per route method: changes get the most, 405s (which read nothing) the fewest. */
const RUNS = { write: runs(200), read: runs(80), not_allowed: runs(5) } as const;
/** A revert reads no body, and each accepted case re-applies a rule list and waits until it is in force. */
const RUNS_OF: Record<string, number> = { "POST /api/admin/audit/[auditId]/revert": runs(60) };

const validParams = (f: Fixture): Record<string, string> => ({
  tenantId: f.tenantId,
  keyId: f.keyId,
  operatorId: f.targetOperatorId,
  auditId: f.auditId,
});

/** A hostile path parameter that never names another test's audit event (a revert would change its data). */
const segmentFor = (name: string): fc.Arbitrary<string> =>
  name === "auditId" ? hostileSegment.filter((s) => !/^\s*\+?0*[1-9][0-9]{0,14}\s*$/.test(s)) : hostileSegment;

async function storedRules(): Promise<{ tenant: unknown; key: unknown }> {
  return {
    tenant: await getRules({ kind: "tenant", tenantId: fx.tenantId }),
    key: await getRules({ kind: "key", keyId: fx.keyId }),
  };
}

/** What the rules must be after a case, given what they were and the answer. */
async function expectedRules(
  m: RouteMethod,
  params: Record<string, string>,
  res: RouteAnswer,
  before: { tenant: unknown; key: unknown },
) {
  if (res.status !== 200) return before;
  if (m.route === "api/admin/tenants/[tenantId]/rules" && m.method === "PUT" && params.tenantId === fx.tenantId)
    return { ...before, tenant: res.body };
  if (m.route === "api/admin/keys/[keyId]/rules" && m.method === "PUT" && params.keyId === fx.keyId)
    return { ...before, key: res.body };
  if (m.route === "api/admin/audit/[auditId]/revert") return storedRules();
  return before;
}

function expectValidCreation(m: RouteMethod, res: RouteAnswer): void {
  if (res.status !== 201) return;
  if (m.route === "api/admin/operators")
    expect(emailSchema.safeParse(res.body.email)).toMatchObject({ success: true, data: res.body.email });
  // A grant (a key's, a JWT subject's or a tier's) has no name: its units and end are what was stored.
  else if (m.route.endsWith("/grants")) {
    expect(Number.isInteger(res.body.units) && res.body.units >= 1).toBe(true);
    expect(Date.parse(res.body.until)).toBeGreaterThan(Date.now() - 60_000);
  } else expect(displayNameSchema.safeParse(res.body.name)).toMatchObject({ success: true, data: res.body.name });
}

describe.each(adminMethods.map((m) => [`${m.method} /${m.route}`, m] as const))("%s", (name, m) => {
  const kind =
    m.spec.kind === "write" ? "write" : m.spec.kind === "read" || m.spec.kind === "admin_read" ? "read" : "not_allowed";
  const numRuns = RUNS_OF[name] ?? RUNS[kind];
  it(
    `never a 5xx or a throw, every refusal problem+json, nothing invalid stored (${numRuns} cases)`,
    { timeout: 120_000 },
    async () => {
      const prepared = kind === "not_allowed" || !("ok" in m.spec) ? { status: 405 } : await m.spec.ok(fx);
      const paramNames = [...m.route.matchAll(/\[(\w+)\]/g)].map((x) => x[1]!);
      const valid = { ...validParams(fx), ...("params" in prepared ? prepared.params : {}) };
      const params = fc.record(
        Object.fromEntries(
          paramNames.map((p) => [
            p,
            fc.oneof({ arbitrary: fc.constant(valid[p]!), weight: 2 }, { arbitrary: segmentFor(p), weight: 1 }),
          ]),
        ),
      );
      const query = fc.oneof(
        fc.constant(("query" in prepared && prepared.query) || ""),
        hostileQuery(QUERY_NAMES, [fx.tenantId, fx.keyId, fx.auditId, "per-key", "checked", "192.0.2.1"]),
      );
      const body =
        m.method === "GET" || m.method === "HEAD"
          ? fc.constant(undefined)
          : hostileBody("body" in prepared ? (prepared.body ?? {}) : {});
      // Mostly the admin token; sometimes an admin session with any Origin (the CSRF check parses it).
      const origin = fc.option(fc.oneof(fc.constant(ORIGIN), headerText), { freq: 5 });
      const cases = fc.record({ params, query, body, origin });

      let before = await storedRules();
      const started = await storedRules();
      await fc.assert(
        fc.asyncProperty(cases, async (c) => {
          const auth =
            c.origin === null ? sec.env.auth : { cookie: await sec.sessionCookie(adminId), origin: c.origin };
          const res = await fuzzCall(m.handler, {
            method: m.method,
            route: m.route,
            params: c.params,
            query: c.query,
            body: c.body,
            headers: { "x-forwarded-for": sec.freshIp(), ...auth },
          });
          if (res.status < 300 && "created" in prepared && prepared.created) prepared.created(res.body);
          expectValidCreation(m, res);
          if (kind !== "write") return;
          const want = await expectedRules(m, c.params, res, before);
          const now = await storedRules();
          expect(now).toEqual(want);
          expect(tenantRulesSchema.parse(now.tenant)).toEqual(now.tenant);
          expect(keyRulesSchema.parse(now.key)).toEqual(now.key);
          before = now;
        }),
        { seed: seedOf(name), numRuns },
      );
      // Reads and 405s change nothing at all.
      if (kind !== "write") expect(await storedRules()).toEqual(started);
    },
  );
});
