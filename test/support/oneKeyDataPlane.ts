/**
 * The data plane (lib/dataplane/dataPlane.ts) in the test process with its real admission and
 * gateway, serving ONE tenant with ONE key and the given rules, without Postgres: the real access
 * cache over that one tenant (test/support/dataPlaneBed.ts `oneKeyTenant`, `accessOver`), rules
 * compiled with their names as ids. The limiter is the caller's (on the shared Redis under the
 * test's own prefix, possibly wrapped to hold decisions). `close()` stops the server.
 */
import http from "node:http";
import { TRUST_NO_PROXY } from "@/lib/config/trustProxy";
import { createDataPlane } from "@/lib/dataplane/dataPlane";
import { forwardToUpstream } from "@/lib/dataplane/gateway/forwardToUpstream";
import type { Limiter } from "@/lib/limiter/decide";
import type { RuleInput } from "@/lib/policy/rules/ruleSchema";
import { accessOver, listenLocal, oneKeyTenant } from "./dataPlaneBed";

export interface OneKeyDataPlane {
  url: string;
  port: number;
  /** The key's whole secret, to send as `Authorization: Bearer`. */
  key: string;
  close(): Promise<void>;
}

export async function startOneKeyDataPlane(options: {
  rules: RuleInput[];
  limiter: Limiter;
  upstreamUrl: string;
  /** An 8-character base-62 key id, unique to the test (its counters' Redis keys carry it). */
  keyId: string;
  tenantId: string;
}): Promise<OneKeyDataPlane> {
  const { tenant, key } = oneKeyTenant(options.rules, {
    tenantId: options.tenantId,
    keyId: options.keyId,
    upstream: { url: options.upstreamUrl, timeoutMs: 600_000 },
    ruleId: (rule) => rule.name,
  });
  const access = accessOver(new Map([[tenant.id, tenant]]));
  await access.ready();
  const server = http.createServer(
    createDataPlane({
      admit: { access, limiter: options.limiter, anonLimitPerMinute: 30, enforce: true },
      check: { access, limiter: options.limiter },
      trustProxy: TRUST_NO_PROXY,
      gateway: { upstreamFor: (tenantId) => access.upstreamFor(tenantId), forward: forwardToUpstream },
    }),
  );
  return { ...(await listenLocal(server)), key };
}
