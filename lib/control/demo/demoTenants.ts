/**
 * The demo's tenants (`npm run demo`, seedDemo.ts): the first with one rule per algorithm, a shadow
 * rule and an identifier rule for the decision API, the second with a path-matched bucket; each
 * with the clients that demoTraffic.ts drives. Data only (the rule type is a type import), so the
 * e2e specs and screenshots that rebuild the demo through the admin API read the same rules.
 */
import type { RuleInput } from "../../policy/rules/ruleSchema";

export interface DemoTenant {
  name: string;
  rules: RuleInput[];
  /** One API key per client; how each behaves is up to the traffic driver (demoTraffic.ts). */
  clients: readonly string[];
}

export const DEMO_TENANTS = [
  {
    name: "Acme (demo)",
    rules: [
      { name: "per-key", algorithm: "sliding_window", scope: "key", limit: 120, windowMs: 60_000 },
      { name: "burst", algorithm: "token_bucket", scope: "key", limit: 10, windowMs: 1_000, burst: 20 },
      { name: "per-ip", algorithm: "gcra", scope: "ip", limit: 600, windowMs: 60_000, burst: 50 },
      { name: "tenant-total", algorithm: "fixed_window", scope: "tenant", limit: 20_000, windowMs: 60_000 },
      {
        name: "writes",
        algorithm: "sliding_log",
        scope: "key",
        limit: 10,
        windowMs: 60_000,
        // Writes to the demo API only: a decision-API call (POST /api/v1/check) is not a write.
        match: { methods: ["POST", "PUT", "PATCH", "DELETE"], path: "/api/v1/echo/**" },
      },
      { name: "strict-trial", algorithm: "fixed_window", scope: "key", limit: 30, windowMs: 60_000, mode: "shadow" },
      { name: "signups", algorithm: "sliding_window", scope: "identifier", limit: 5, windowMs: 60_000 },
    ],
    clients: ["steady", "bursty", "abusive", "partner"],
  },
  {
    name: "Globex (demo)",
    rules: [
      // A burst of 50: batch's 40 at once are refused by nightly-export's bucket, not by this.
      { name: "per-key", algorithm: "gcra", scope: "key", limit: 300, windowMs: 60_000, burst: 50 },
      {
        name: "nightly-export",
        algorithm: "token_bucket",
        scope: "key",
        limit: 2,
        windowMs: 1_000,
        burst: 30,
        match: { path: "/api/v1/echo/export/**" },
      },
    ],
    clients: ["mobile", "batch"],
  },
] as const satisfies readonly DemoTenant[];
