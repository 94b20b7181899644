/**
 * The data plane (lib/dataplane/dataPlane.ts) in the test process with its real admission and
 * gateway, serving ONE tenant with ONE key and the given rules, without Postgres: the access cache
 * is a stand-in that knows that key. The limiter is the caller's (on the shared Redis under the
 * test's own prefix, possibly wrapped to hold decisions). `close()` stops the server.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { TRUST_NO_PROXY } from "@/lib/config/trustProxy";
import { createDataPlane } from "@/lib/dataplane/dataPlane";
import { forwardToUpstream } from "@/lib/dataplane/gateway/forwardToUpstream";
import type { Limiter } from "@/lib/limiter/decide";
import type { AccessCache } from "@/lib/policy/compiled/accessCache";
import type { KeyAccess } from "@/lib/policy/compiled/accessLoader";
import { compileRule } from "@/lib/policy/compiled/effectiveRules";
import { mintKey } from "@/lib/policy/keys/apiKeySecret";
import { ruleSchema, type RuleInput } from "@/lib/policy/rules/ruleSchema";

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
  const minted = mintKey(options.keyId);
  const key: KeyAccess = {
    id: options.keyId,
    tenantId: options.tenantId,
    name: "test",
    secretHash: minted.secretHash,
    expiresAtMs: null,
    overrides: [],
    rules: options.rules.map((input) => {
      const rule = ruleSchema.parse(input);
      return compileRule(rule, rule.name, false);
    }),
  };
  const access = {
    isReady: () => true,
    ready: async () => {},
    liveKey: (id: string) => (id === key.id ? key : undefined),
    tenant: () => undefined,
    rulesFor: () => key.rules,
    hasHosts: () => false,
  } as unknown as AccessCache;
  const server = http.createServer(
    createDataPlane({
      admit: { access, limiter: options.limiter, anonLimitPerMinute: 30, enforce: true },
      check: { access, limiter: options.limiter },
      trustProxy: TRUST_NO_PROXY,
      gateway: {
        upstreamFor: () => ({ url: options.upstreamUrl, timeoutMs: 600_000 }),
        forward: forwardToUpstream,
      },
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    key: minted.key,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
