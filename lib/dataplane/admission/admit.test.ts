/**
 * Admission's outcomes and what the edge makes of each (admit.ts, then applyOutcome.ts), with a
 * stand-in access cache, limiter, metrics registry and recorder (no Redis): every exit's
 * `sluice_decisions_total{outcome}` label, the rule verdicts counted, the recorder's entry (or
 * none), the reply's status, and what an admission carries (headers, lease, charge, `then`).
 */
import { describe, expect, it } from "vitest";
import { decisionOf, ruleResult } from "@/test/support/decisions";
import type { Limiter } from "../../limiter/decide";
import type { Decision, LimiterRule, Subject } from "../../limiter/types";
import type { SluiceMetrics } from "../../monitoring/prometheus/metrics";
import type { DecisionSink, RecordedRequest } from "../../monitoring/record/decisionRecorder";
import type { AccessCache } from "../../policy/compiled/accessCache";
import type { KeyAccess, TenantAccess } from "../../policy/compiled/accessLoader";
import { ANONYMOUS_TENANT } from "../../policy/compiled/anonymousRule";
import { compileRule } from "../../policy/compiled/effectiveRules";
import { identitySchema, type IdentityInput } from "../../policy/identity/identitySchema";
import type { JwtVerdict } from "../../policy/identity/jwtVerifier";
import { mintKey } from "../../policy/keys/apiKeySecret";
import { ruleListSchema, type RuleInput } from "../../policy/rules/ruleSchema";
import { admit, prepareAdmission, type AdmitRequest } from "./admit";
import { applyOutcome } from "./applyOutcome";
import type { HeaderSource } from "./credentials";
import { decideOnce, type FollowingDecision } from "./decideOnce";
import type { Admission, Client } from "./outcome";

const TENANT = "tenantA";
const KEY_ID = "keyAAAA1";
const minted = mintKey(KEY_ID);

type Verdict = "allow" | "refuse" | "unavailable";

interface Setup {
  rules?: RuleInput[];
  /** The access list's verdict for every client. */
  listed?: "allow" | "deny";
  identity?: IdentityInput;
  jwt?: JwtVerdict;
  /** What the limiter answers (the anonymous limit included). */
  verdict?: Verdict;
  lease?: boolean;
  storeDown?: boolean;
}

/** Every rule allowing, refusing, or refusing from a closed fail mode (Redis unavailable). */
function decided(rules: LimiterRule[], verdict: Verdict, lease: boolean): Decision {
  const allowed = verdict === "allow";
  const source = verdict === "unavailable" ? ("fail_closed" as const) : ("redis" as const);
  const decision = decisionOf(rules.map((rule) => ruleResult(rule, { allowed, source })));
  return allowed && lease ? { ...decision, lease: { id: "L1", keys: ["k1", "k2"], rules } } : decision;
}

/**
 * Runs one request through admit() and applyOutcome(), as the data plane's edge does; with
 * `following`, through admission's steps with that decision added once the caller is known (as
 * the data plane does for POST /api/v1/check).
 */
async function run(
  setup: Setup,
  request: Partial<Omit<AdmitRequest, "headers">> & { headers?: Record<string, string> | HeaderSource } = {},
  following?: (client: Client) => FollowingDecision | undefined,
) {
  const rules = ruleListSchema.parse(setup.rules ?? []).map((rule, i) => compileRule(rule, String(i + 1), false));
  const key: KeyAccess = {
    id: KEY_ID,
    tenantId: TENANT,
    name: "key",
    secretHash: minted.secretHash,
    expiresAtMs: null,
    overrides: [],
    rules,
  };
  const tenant: TenantAccess = {
    id: TENANT,
    name: TENANT,
    rules,
    keys: new Map([[KEY_ID, key]]),
    ...(setup.listed
      ? { accessLists: { verdict: () => setup.listed! } as unknown as TenantAccess["accessLists"] }
      : {}),
    ...(setup.identity ? { identity: identitySchema.parse(setup.identity) } : {}),
  };
  const access = {
    isReady: () => !setup.storeDown,
    ready: async () => {
      if (setup.storeDown) throw new Error("store down");
    },
    liveKey: (id: string) => (id === KEY_ID ? key : undefined),
    tenant: (id: string) => (id === TENANT ? tenant : undefined),
    // No tiers here (AccessCache.rulesFor's own tests cover them): a key's rules, else the tenant's.
    rulesFor: (id: string, caller: { key?: KeyAccess }) => caller.key?.rules ?? (id === TENANT ? rules : []),
    jwtVerifier: () => (setup.jwt ? { verify: async () => setup.jwt! } : undefined),
  } as unknown as AccessCache;
  const calls: { rules: LimiterRule[]; subject: Subject; then?: Subject }[] = [];
  const verdict = setup.verdict ?? "allow";
  const limiter = {
    decide: async (rules: LimiterRule[], subject: Subject) => {
      calls.push({ rules, subject });
      return decided(rules, verdict, setup.lease ?? false);
    },
    decideThen: async (
      rules: LimiterRule[],
      subject: Subject,
      _o: unknown,
      then: { rules: LimiterRule[]; subject: Subject },
    ) => {
      calls.push({ rules, subject, then: then.subject });
      const first = decided(rules, verdict, false);
      return [first, first.allowed ? decided(then.rules, "allow", false) : undefined];
    },
  } as unknown as Limiter;
  const counted: string[] = [];
  const counter = (name: string) => ({
    inc: (labels: Record<string, string>, n = 1) =>
      counted.push(`${name}{${Object.values(labels).join(",")}}${n === 1 ? "" : ` ${n}`}`),
  });
  const metrics = {
    decisions: counter("decisions"),
    ruleResults: counter("ruleResults"),
    penaltyRefusals: counter("penaltyRefusals"),
    accessListVerdicts: counter("accessListVerdicts"),
    concurrencyLeases: counter("concurrencyLeases"),
    decideSeconds: { startTimer: () => () => 0 },
  } as unknown as SluiceMetrics;
  const recorded: RecordedRequest[] = [];
  const recorder: DecisionSink = { recordRequest: (r) => void recorded.push(r), recordCheck: () => undefined };
  const sent = request.headers ?? { "x-api-key": minted.key };
  const headers = typeof sent.get === "function" ? (sent as HeaderSource) : new Headers(sent as Record<string, string>);
  const full: AdmitRequest = { method: "GET", path: "/orders/1", ip: "192.0.2.7", ...request, headers };
  const deps = { access, limiter, anonLimitPerMinute: 60, enforce: true, metrics, recorder };
  let admission: Admission;
  if (following) {
    const prepared = await prepareAdmission(full, deps);
    admission =
      prepared.kind === "decide" ? await decideOnce(prepared, full, deps, following(prepared.client)) : prepared;
  } else admission = await admit(full, deps);
  applyOutcome(admission, full, deps);
  return { admission, counted, recorded, calls };
}

const perKey = { name: "per-key", scope: "key" as const, limit: 5, windowMs: 60_000 };
const perIp = { name: "per-ip", scope: "ip" as const, limit: 5, windowMs: 60_000 };
const byUser = {
  name: "by-user",
  scope: "header" as const,
  scopeKey: "X-User",
  onMissing: "refuse" as const,
  limit: 5,
  windowMs: 60_000,
};
const status = (a: Admission) => (a.kind === "refused" ? a.reply.status : 200);

describe("admission's outcomes, applied once at the edge", () => {
  it("allowed: the limiter admitted it; headers, verdicts counted, recorded under the tenant and key", async () => {
    const { admission, counted, recorded } = await run({ rules: [perKey] });
    expect(admission).toMatchObject({ kind: "admitted", outcome: "allowed", client: { tenantId: TENANT } });
    expect(admission.kind === "admitted" && admission.headers["RateLimit-Policy"]).toBeTruthy();
    expect(counted).toEqual(["decisions{allowed}", "ruleResults{per-key,allowed}"]);
    expect(recorded).toEqual([
      expect.objectContaining({ tenantId: TENANT, keyId: KEY_ID, method: "GET", path: "/orders/1", ip: "192.0.2.7" }),
    ]);
    expect(recorded[0]!.decision?.allowed).toBe(true);
  });

  it("refused (429) and unavailable (503): recorded with the refusing decision, verdicts counted", async () => {
    const refused = await run({ rules: [perKey], verdict: "refuse" });
    expect([refused.admission.outcome, status(refused.admission)]).toEqual(["refused", 429]);
    expect(refused.counted).toEqual(["decisions{refused}", "ruleResults{per-key,refused}"]);
    expect(refused.recorded).toEqual([expect.objectContaining({ tenantId: TENANT, keyId: KEY_ID })]);
    const unavailable = await run({ rules: [perKey], verdict: "unavailable" });
    expect([unavailable.admission.outcome, status(unavailable.admission)]).toEqual(["unavailable", 503]);
    expect(unavailable.counted[0]).toBe("decisions{unavailable}");
    expect(unavailable.recorded).toHaveLength(1);
  });

  it("unmatched: no rule applies, no limiter call, recorded without a decision", async () => {
    const { admission, counted, recorded, calls } = await run({ rules: [{ ...perKey, match: { path: "/other" } }] });
    expect(admission).toMatchObject({ kind: "admitted", outcome: "unmatched", headers: {}, decision: null });
    expect(calls).toEqual([]);
    expect(counted).toEqual(["decisions{unmatched}"]);
    expect(recorded).toEqual([expect.objectContaining({ tenantId: TENANT, keyId: KEY_ID, decision: null })]);
  });

  it("unauthenticated (401) and unauthenticated_refused (429): the anonymous limit, recorded under ANONYMOUS_TENANT", async () => {
    const none = await run({ rules: [perKey] }, { headers: {} });
    expect([none.admission.outcome, status(none.admission)]).toEqual(["unauthenticated", 401]);
    expect(none.admission.kind === "refused" && none.admission.reply.headers?.["WWW-Authenticate"]).toBe(
      'Bearer realm="sluice"',
    );
    // The anonymous limit's verdicts count only when it refuses.
    expect(none.counted).toEqual(["decisions{unauthenticated}"]);
    expect(none.recorded).toEqual([expect.objectContaining({ tenantId: ANONYMOUS_TENANT, keyId: undefined })]);
    expect(none.calls[0]!.subject).toEqual({ tenantId: ANONYMOUS_TENANT, ip: "192.0.2.7" });
    const bad = await run({ verdict: "refuse" }, { headers: { authorization: `Bearer ${minted.key}x` } });
    expect([bad.admission.outcome, status(bad.admission)]).toEqual(["unauthenticated_refused", 429]);
    expect(bad.counted).toEqual(["decisions{unauthenticated_refused}", "ruleResults{anonymous,refused}"]);
    expect(bad.recorded).toEqual([expect.objectContaining({ tenantId: ANONYMOUS_TENANT, keyId: undefined })]);
  });

  it("store_unavailable (503): nothing decided, not recorded", async () => {
    const { admission, counted, recorded, calls } = await run({ storeDown: true, rules: [perKey] });
    expect([admission.outcome, status(admission)]).toEqual(["store_unavailable", 503]);
    expect([counted, recorded, calls]).toEqual([["decisions{store_unavailable}"], [], []]);
  });

  it("access_denied (403) and access_allowed: the list's verdict counted; only the allowed one recorded", async () => {
    const denied = await run({ rules: [perKey], listed: "deny" });
    expect([denied.admission.outcome, status(denied.admission)]).toEqual(["access_denied", 403]);
    expect(denied.counted).toEqual(["decisions{access_denied}", "accessListVerdicts{deny}"]);
    expect([denied.recorded, denied.calls]).toEqual([[], []]);
    const allowed = await run({ rules: [perKey], listed: "allow" });
    expect(allowed.admission).toMatchObject({ kind: "admitted", outcome: "access_allowed", headers: {} });
    expect(allowed.counted).toEqual(["decisions{access_allowed}", "accessListVerdicts{allow}"]);
    expect(allowed.recorded).toEqual([expect.objectContaining({ keyId: KEY_ID, decision: null })]);
    expect(allowed.calls).toEqual([]);
  });

  it("attribute_missing and attribute_repeated (400): named, nothing charged, not recorded", async () => {
    const missing = await run({ rules: [byUser] });
    expect([missing.admission.outcome, status(missing.admission)]).toEqual(["attribute_missing", 400]);
    expect([missing.counted, missing.recorded, missing.calls]).toEqual([["decisions{attribute_missing}"], [], []]);
    const sent = await run({ rules: [byUser] }, { headers: { "x-api-key": minted.key, "x-user": "a" } });
    expect(sent.admission.outcome).toBe("allowed");
    // Two lines with different values, told apart as node's headersDistinct does.
    const lines: Record<string, string[]> = { "x-api-key": [minted.key], "x-user": ["a", "b"] };
    const source: HeaderSource = { get: (n) => lines[n]?.join(", "), all: (n) => lines[n] };
    const refused = await run({ rules: [byUser] }, { headers: source });
    expect([refused.admission.outcome, status(refused.admission)]).toEqual(["attribute_repeated", 400]);
    expect(refused.counted).toEqual(["decisions{attribute_repeated}"]);
  });

  it("a lease is counted taken once; a chargeOn rule is carried as the charge, not for forward auth", async () => {
    const inflight = {
      name: "inflight",
      scope: "key" as const,
      algorithm: "concurrency" as const,
      limit: 2,
      windowMs: 30_000,
    };
    const leased = await run({ rules: [inflight], lease: true });
    expect(leased.admission.kind === "admitted" && leased.admission.lease?.keys).toEqual(["k1", "k2"]);
    expect(leased.counted).toContain("concurrencyLeases{taken} 2");
    const forward = await run(
      { rules: [inflight, { ...perKey, chargeOn: ["4xx"] }], lease: true },
      { forwardAuth: true },
    );
    expect(forward.calls[0]!.rules.map((r) => r.name)).toEqual(["per-key"]);
    expect(forward.admission).not.toHaveProperty("charge");
    const charged = await run({ rules: [{ ...perKey, chargeOn: ["4xx"] }, perIp] });
    expect(charged.admission.kind === "admitted" && charged.admission.charge?.rules.map((r) => r.name)).toEqual([
      "per-key",
    ]);
  });

  it("a following decision is asked with the client and made in the same limiter call", async () => {
    const seen: string[] = [];
    const then = (client: Client): FollowingDecision => {
      seen.push(client.tenantId);
      return { rules: [ruleOf(perIp)], subject: { tenantId: client.tenantId, identifier: "u1" } };
    };
    const { admission, calls } = await run({ rules: [perKey] }, {}, then);
    expect(seen).toEqual([TENANT]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.then).toEqual({ tenantId: TENANT, identifier: "u1" });
    expect(admission.kind === "admitted" && admission.then?.allowed).toBe(true);
  });

  it("on a tenant's host: a JWT caller counts per marked subject; anonymous meets no key rule; a JWKS down is 503", async () => {
    const identity = { hosts: ["api.example.com"], anonymous: true };
    const jwt = await run(
      { rules: [perKey], identity, jwt: { ok: true, subject: "alice" } },
      { hostTenant: TENANT, headers: { authorization: "Bearer a.b.c" } },
    );
    expect(jwt.admission).toMatchObject({ outcome: "allowed", client: { subject: "alice", credential: null } });
    expect(jwt.calls[0]!.subject.keyId).toBe("~alice");
    expect(jwt.recorded).toEqual([expect.objectContaining({ tenantId: TENANT, keyId: "~alice" })]);
    const anonymous = await run({ rules: [perKey, perIp], identity }, { hostTenant: TENANT, headers: {} });
    expect(anonymous.calls[0]!.rules.map((r) => r.name)).toEqual(["per-ip"]);
    expect(anonymous.recorded).toEqual([expect.objectContaining({ tenantId: TENANT, keyId: undefined })]);
    const down = await run(
      { rules: [perKey], identity, jwt: { ok: false, unavailable: true, reason: "JWKS down" } },
      { hostTenant: TENANT, headers: { authorization: "Bearer a.b.c" } },
    );
    expect([down.admission.outcome, status(down.admission)]).toEqual(["jwks_unavailable", 503]);
    expect([down.counted, down.recorded]).toEqual([["decisions{jwks_unavailable}"], []]);
  });
});

function ruleOf(input: RuleInput): LimiterRule {
  return compileRule(ruleListSchema.parse([input])[0]!, "9", false).limiter;
}
